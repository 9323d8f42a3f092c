//! A small JSON reader for serde: how the wasm exports read their object arguments.
//!
//! An export receives a JavaScript object, has the engine's `JSON.stringify` turn it into text (one
//! call, native speed) and reads that text here into the core's input type. Compared with walking the
//! object through serde-wasm-bindgen (a JavaScript call per field and per string), this is faster for
//! large inputs and, above all, much smaller in the wasm file: its [`Error`] carries no message, so
//! none of serde's error texts (and the `f64` formatting they pull in) is linked. The exports replace
//! any failure by [`crate::CoreError::InvalidArgument`] naming the argument anyway.
//!
//! It reads standard JSON (RFC 8259) with serde's usual mapping, as `serde_json` does, with two
//! leniencies that match how serde-wasm-bindgen read JavaScript values before: an array read into a
//! tuple or fixed-size array may have more elements than it takes (the rest is skipped), and an
//! unpaired surrogate escape (`"\ud800"`, which `JSON.stringify` writes for a lone surrogate) reads as
//! U+FFFD, as wasm-bindgen's string conversion does. Numbers read exactly: integers and the usual
//! short decimals with integer arithmetic and one rounding, anything longer through the `parse_float`
//! the caller gives (the engine's `parseFloat` in wasm, `str::parse` natively). Nesting deeper than
//! [`MAX_DEPTH`] is refused rather than risking the stack.

use std::borrow::Cow;
use std::fmt;

use serde::de::value::{BorrowedStrDeserializer, StrDeserializer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Expected, Unexpected, Visitor};

/// How deeply arrays and objects may nest.
pub const MAX_DEPTH: u32 = 128;

/// Why a JSON text could not be read into the type asked for. It deliberately carries no message
/// (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Error;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON text of the wrong shape")
    }
}

impl std::error::Error for Error {}

// Every constructor is overridden so that no message is ever formatted.
impl de::Error for Error {
    fn custom<T: fmt::Display>(_: T) -> Self {
        Error
    }
    fn invalid_type(_: Unexpected<'_>, _: &dyn Expected) -> Self {
        Error
    }
    fn invalid_value(_: Unexpected<'_>, _: &dyn Expected) -> Self {
        Error
    }
    fn invalid_length(_: usize, _: &dyn Expected) -> Self {
        Error
    }
    fn unknown_variant(_: &str, _: &'static [&'static str]) -> Self {
        Error
    }
    fn unknown_field(_: &str, _: &'static [&'static str]) -> Self {
        Error
    }
    fn missing_field(_: &'static str) -> Self {
        Error
    }
    fn duplicate_field(_: &'static str) -> Self {
        Error
    }
}

/// Reads `text` (one JSON value, whitespace around it allowed) into `T`. `parse_float` converts the
/// number literals that integer arithmetic cannot convert exactly (more than 19 significant digits,
/// or a decimal exponent beyond ±22); it is given a valid JSON number.
pub fn from_str<T: DeserializeOwned>(text: &str, parse_float: fn(&str) -> f64) -> Result<T, Error> {
    let mut reader = Reader {
        text: text.as_bytes(),
        pos: 0,
        depth: 0,
        parse_float,
    };
    let value = T::deserialize(&mut reader)?;
    match reader.peek() {
        None => Ok(value),
        Some(_) => Err(Error),
    }
}

/// The serde deserializer over one JSON text.
struct Reader<'de> {
    text: &'de [u8],
    pos: usize,
    depth: u32,
    parse_float: fn(&str) -> f64,
}

/// Exact powers of ten as `f64` (10²² is the largest).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

impl<'de> Reader<'de> {
    /// The next byte that is not whitespace, without consuming it.
    fn peek(&mut self) -> Option<u8> {
        while let Some(&byte) = self.text.get(self.pos) {
            if !matches!(byte, b' ' | b'\t' | b'\n' | b'\r') {
                return Some(byte);
            }
            self.pos += 1;
        }
        None
    }

    /// Consumes `byte` (after whitespace), or fails.
    fn expect(&mut self, byte: u8) -> Result<(), Error> {
        if self.peek() == Some(byte) {
            self.pos += 1;
            Ok(())
        } else {
            Err(Error)
        }
    }

    /// Consumes the literal `word` (`null`, `true`, `false`), or fails.
    fn literal(&mut self, word: &[u8]) -> Result<(), Error> {
        if self.text[self.pos..].starts_with(word) {
            self.pos += word.len();
            Ok(())
        } else {
            Err(Error)
        }
    }

    /// Enters an array or an object.
    fn enter(&mut self) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            Err(Error)
        } else {
            Ok(())
        }
    }

    /// Reads a string (the opening quote not yet consumed); borrowed when it has no escape.
    fn string(&mut self) -> Result<Cow<'de, str>, Error> {
        self.expect(b'"')?;
        let start = self.pos;
        let mut owned: Option<Vec<u8>> = None;
        let mut run = start;
        loop {
            let &byte = self.text.get(self.pos).ok_or(Error)?;
            match byte {
                b'"' => {
                    let end = self.pos;
                    self.pos += 1;
                    return Ok(match owned {
                        // The input is a `str` and runs are cut at ASCII bytes, so both are UTF-8.
                        None => Cow::Borrowed(utf8(&self.text[start..end])?),
                        Some(mut bytes) => {
                            bytes.extend_from_slice(&self.text[run..end]);
                            Cow::Owned(String::from_utf8(bytes).map_err(|_| Error)?)
                        }
                    });
                }
                b'\\' => {
                    let bytes = owned.get_or_insert_with(Vec::new);
                    bytes.extend_from_slice(&self.text[run..self.pos]);
                    self.pos += 1;
                    let &escape = self.text.get(self.pos).ok_or(Error)?;
                    self.pos += 1;
                    let ch = match escape {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'/' => '/',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'u' => self.unicode_escape()?,
                        _ => return Err(Error),
                    };
                    let mut buf = [0; 4];
                    bytes.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                    run = self.pos;
                }
                0..=0x1f => return Err(Error),
                _ => self.pos += 1,
            }
        }
    }

    /// The character of a `\u` escape (the `\u` consumed), pairing surrogates; an unpaired one is
    /// U+FFFD.
    fn unicode_escape(&mut self) -> Result<char, Error> {
        let first = self.hex4()?;
        if (0xD800..0xDC00).contains(&first) && self.text[self.pos..].starts_with(b"\\u") {
            let save = self.pos;
            self.pos += 2;
            let second = self.hex4()?;
            if (0xDC00..0xE000).contains(&second) {
                let code = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00);
                return Ok(char::from_u32(code).unwrap_or('\u{FFFD}'));
            }
            self.pos = save;
        }
        Ok(char::from_u32(first).unwrap_or('\u{FFFD}'))
    }

    /// Four hexadecimal digits.
    fn hex4(&mut self) -> Result<u32, Error> {
        let digits = self.text.get(self.pos..self.pos + 4).ok_or(Error)?;
        let mut value = 0;
        for &digit in digits {
            value = value * 16 + char::from(digit).to_digit(16).ok_or(Error)?;
        }
        self.pos += 4;
        Ok(value)
    }

    /// Consumes a run of decimal digits, adding them to `mantissa` while it has room; returns how
    /// many digits there were and how many did not fit.
    fn digits(&mut self, mantissa: &mut u64) -> (usize, usize) {
        let (mut count, mut dropped) = (0, 0);
        while let Some(&byte) = self.text.get(self.pos) {
            if !byte.is_ascii_digit() {
                break;
            }
            if *mantissa < 1_000_000_000_000_000_000 {
                *mantissa = *mantissa * 10 + u64::from(byte - b'0');
            } else {
                dropped += 1;
            }
            count += 1;
            self.pos += 1;
        }
        (count, dropped)
    }

    /// Reads a number as the nearest `f64`.
    fn number(&mut self) -> Result<f64, Error> {
        self.peek();
        let start = self.pos;
        let negative = self.text.get(self.pos) == Some(&b'-');
        if negative {
            self.pos += 1;
        }
        let mut mantissa = 0u64;
        let int_start = self.pos;
        let (int_digits, dropped) = self.digits(&mut mantissa);
        if int_digits == 0 || (int_digits > 1 && self.text[int_start] == b'0') {
            return Err(Error);
        }
        // The decimal exponent of the mantissa's last digit; digits that did not fit still count.
        let mut exponent = dropped as i64;
        let mut inexact = dropped > 0;
        if self.text.get(self.pos) == Some(&b'.') {
            self.pos += 1;
            let (frac_digits, frac_dropped) = self.digits(&mut mantissa);
            if frac_digits == 0 {
                return Err(Error);
            }
            exponent -= (frac_digits - frac_dropped) as i64;
            inexact |= frac_dropped > 0;
        }
        if matches!(self.text.get(self.pos), Some(b'e' | b'E')) {
            self.pos += 1;
            let sign = match self.text.get(self.pos) {
                Some(b'-') => -1,
                Some(b'+') => 1,
                _ => 0,
            };
            if sign != 0 {
                self.pos += 1;
            }
            let mut value = 0u64;
            let (count, _) = self.digits(&mut value);
            if count == 0 {
                return Err(Error);
            }
            // A huge exponent only needs to stay huge.
            let value = i64::try_from(value).unwrap_or(i64::MAX).min(100_000);
            exponent += if sign < 0 { -value } else { value };
        }
        let magnitude = if mantissa == 0 && !inexact {
            0.0
        } else if inexact || (mantissa >= 1 << 53 && exponent != 0) || exponent.abs() > 22 {
            // Beyond one exact rounding: the host's correctly rounded conversion.
            let text = utf8(&self.text[start..self.pos])?;
            return Ok((self.parse_float)(text));
        } else if exponent >= 0 {
            // Both exact (mantissa below 2⁵³ or exponent 0), so the product is rounded once.
            mantissa as f64 * POW10[exponent as usize]
        } else {
            mantissa as f64 / POW10[(-exponent) as usize]
        };
        Ok(if negative { -magnitude } else { magnitude })
    }

    /// Skips one value of any kind.
    fn skip(&mut self) -> Result<(), Error> {
        match self.peek().ok_or(Error)? {
            b'n' => self.literal(b"null"),
            b't' => self.literal(b"true"),
            b'f' => self.literal(b"false"),
            b'"' => self.string().map(drop),
            b'[' => {
                self.pos += 1;
                self.enter()?;
                let mut first = true;
                while self.more(b']', &mut first)? {
                    self.skip()?;
                }
                self.depth -= 1;
                Ok(())
            }
            b'{' => {
                self.pos += 1;
                self.enter()?;
                let mut first = true;
                while self.more(b'}', &mut first)? {
                    self.string()?;
                    self.expect(b':')?;
                    self.skip()?;
                }
                self.depth -= 1;
                Ok(())
            }
            _ => self.number().map(drop),
        }
    }

    /// Inside an array or object: consumes `close` and returns false at its end, otherwise the comma
    /// before every element but the first, and returns true.
    fn more(&mut self, close: u8, first: &mut bool) -> Result<bool, Error> {
        if self.peek() == Some(close) {
            self.pos += 1;
            return Ok(false);
        }
        if !std::mem::take(first) {
            self.expect(b',')?;
        }
        Ok(true)
    }

    /// A whole number that a JavaScript `number` holds exactly, as `i64`.
    fn safe_integer(&mut self) -> Result<i64, Error> {
        let value = self.number()?;
        const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
        if value.fract() == 0.0 && value.abs() <= MAX_SAFE {
            Ok(value as i64)
        } else {
            Err(Error)
        }
    }
}

fn utf8(bytes: &[u8]) -> Result<&str, Error> {
    std::str::from_utf8(bytes).map_err(|_| Error)
}

/// The elements of an array, or the entries of an object, for a visitor.
struct Items<'a, 'de> {
    reader: &'a mut Reader<'de>,
    close: u8,
    first: bool,
    done: bool,
}

impl<'a, 'de> Items<'a, 'de> {
    /// Consumes the opening bracket or brace.
    fn open(reader: &'a mut Reader<'de>, open: u8, close: u8) -> Result<Self, Error> {
        reader.expect(open)?;
        reader.enter()?;
        Ok(Self {
            reader,
            close,
            first: true,
            done: false,
        })
    }

    fn next(&mut self) -> Result<bool, Error> {
        if self.done {
            return Ok(false);
        }
        let more = self.reader.more(self.close, &mut self.first)?;
        self.done = !more;
        Ok(more)
    }

    /// Skips what the visitor did not read, through the closing bracket or brace.
    fn finish(mut self) -> Result<(), Error> {
        while self.next()? {
            if self.close == b'}' {
                self.reader.string()?;
                self.reader.expect(b':')?;
            }
            self.reader.skip()?;
        }
        self.reader.depth -= 1;
        Ok(())
    }
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.next()? {
            seed.deserialize(&mut *self.reader).map(Some)
        } else {
            Ok(None)
        }
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        if !self.next()? {
            return Ok(None);
        }
        if self.reader.peek() != Some(b'"') {
            return Err(Error);
        }
        let key = seed.deserialize(&mut *self.reader)?;
        self.reader.expect(b':')?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.reader)
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.peek().ok_or(Error)? {
            b'n' => {
                self.literal(b"null")?;
                visitor.visit_unit()
            }
            b't' | b'f' => self.deserialize_bool(visitor),
            b'"' => self.deserialize_str(visitor),
            b'[' => self.deserialize_seq(visitor),
            b'{' => self.deserialize_map(visitor),
            _ => {
                // As serde-wasm-bindgen: safe integers as integers, other numbers as `f64`.
                let value = self.number()?;
                if value.fract() == 0.0 && value.abs() <= 9_007_199_254_740_991.0 {
                    visitor.visit_i64(value as i64)
                } else {
                    visitor.visit_f64(value)
                }
            }
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.peek() {
            Some(b't') => {
                self.literal(b"true")?;
                visitor.visit_bool(true)
            }
            Some(b'f') => {
                self.literal(b"false")?;
                visitor.visit_bool(false)
            }
            _ => Err(Error),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        visitor.visit_i64(self.safe_integer()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_i64(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_f64(visitor)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.peek() {
            Some(b'-' | b'0'..=b'9') => visitor.visit_f64(self.number()?),
            _ => Err(Error),
        }
    }

    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.string()? {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.peek() == Some(b'n') {
            self.literal(b"null")?;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.peek() != Some(b'n') {
            return Err(Error);
        }
        self.literal(b"null")?;
        visitor.visit_unit()
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_unit(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let mut items = Items::open(self, b'[', b']')?;
        let value = visitor.visit_seq(&mut items)?;
        items.finish()?;
        Ok(value)
    }

    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_seq(visitor)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let mut items = Items::open(self, b'{', b'}')?;
        let value = visitor.visit_map(&mut items)?;
        items.finish()?;
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.deserialize_map(visitor)
    }

    /// Unit variants only, written as their name (`"long"`).
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.string()? {
            Cow::Borrowed(text) => visitor.visit_enum(BorrowedStrDeserializer::<Error>::new(text)),
            Cow::Owned(text) => visitor.visit_enum(StrDeserializer::<Error>::new(&text)),
        }
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_str(visitor)
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.skip()?;
        visitor.visit_unit()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde::Deserialize;
    use serde_json::Value;

    use super::*;

    fn parse<T: DeserializeOwned>(text: &str) -> Result<T, Error> {
        from_str(text, |t| t.parse().unwrap_or(f64::NAN))
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "lowercase")]
    enum Side {
        Long,
        Short,
    }

    #[derive(Debug, Deserialize, PartialEq)]
    #[serde(rename_all = "camelCase")]
    struct Input {
        side: Side,
        size: String,
        #[serde(default)]
        tick_size: Option<String>,
        #[serde(alias = "qty")]
        quantity: Option<String>,
        precision: Option<f64>,
        levels: Vec<[String; 2]>,
    }

    #[test]
    fn reads_structs_like_serde_json() {
        let text = r#" { "side" : "short", "size": "1.5", "extra": [1, {"a": [null, true]}, "x"],
            "qty": "2", "precision": 4, "levels": [["1", "2"], ["3", "4\"\\\/\n\u00e9\ud83d\ude00"]] } "#;
        let input: Input = parse(text).unwrap();
        assert_eq!(
            input,
            Input {
                side: Side::Short,
                size: "1.5".into(),
                tick_size: None,
                quantity: Some("2".into()),
                precision: Some(4.0),
                levels: vec![["1".into(), "2".into()], ["3".into(), "4\"\\/\né😀".into()]],
            }
        );
        let input: Input =
            parse(r#"{"side":"long","size":"1","tickSize":null,"levels":[["1","2","3"]]}"#)
                .unwrap();
        assert_eq!(input.side, Side::Long);
        assert_eq!(input.levels, vec![["1".to_string(), "2".to_string()]]);
    }

    #[test]
    fn refuses_the_wrong_shape_and_malformed_text() {
        for text in [
            r#"{"side":"up","size":"1","levels":[]}"#,
            r#"{"side":"long","size":1,"levels":[]}"#,
            r#"{"side":"long","levels":[]}"#,
            r#"{"side":"long","size":"1","levels":[["1"]]}"#,
            r#"{"side":"long","size":"1","levels":[]} x"#,
            r#"{"side":"long","size":"1","levels":[],}"#,
            r#"{"side":"long","size":"1" "levels":[]}"#,
            r#"{"side":"long","size":"1","levels":[], "x": 01}"#,
            r#"{"side":"long","size":"1","levels":[], "x": 1.}"#,
            r#"{"side":"long","size":"1","levels":[], "x": "\x"}"#,
            "{\"side\":\"long\",\"size\":\"1\n\",\"levels\":[]}",
            r#"{"side":"long","size":"1","levels":[], "x": tru}"#,
            r#"{"side":"long","size":"1","levels":[]"#,
            "",
            "null",
        ] {
            assert_eq!(parse::<Input>(text), Err(Error), "{text}");
        }
        let deep = "[".repeat(200) + &"]".repeat(200);
        assert_eq!(parse::<Value>(&deep), Err(Error));
        let skipped_deep = format!(r#"{{"side":"long","size":"1","levels":[],"x":{deep}}}"#);
        assert_eq!(parse::<Input>(&skipped_deep), Err(Error));
    }

    #[test]
    fn numbers_are_exact() {
        for text in [
            "0",
            "-0",
            "1",
            "-17",
            "0.1",
            "0.30000000000000004",
            "1.5e-7",
            "1e21",
            "1e+21",
            "123456789012345680000",
            "9007199254740993",
            "18446744073709551616",
            "4.9406564584124654e-324",
            "1.7976931348623157e308",
            "2.2250738585072014E-308",
            "123.456e5",
            "0.000001",
            "1e400",
            "-1e-400",
        ] {
            let expected: f64 = text.parse().unwrap();
            let value: f64 = parse(text).unwrap();
            assert_eq!(value.to_bits(), expected.to_bits(), "{text}");
        }
        // Integers: exact within ±(2⁵³ − 1), refused beyond or when fractional.
        assert_eq!(parse::<u32>("4"), Ok(4));
        assert_eq!(parse::<u32>("-1"), Err(Error));
        assert_eq!(parse::<u32>("4.5"), Err(Error));
        assert_eq!(parse::<i64>("9007199254740991"), Ok(9_007_199_254_740_991));
        assert_eq!(parse::<i64>("9007199254740992"), Err(Error));
    }

    #[test]
    fn any_value_reads_as_serde_json_reads_it() {
        let text = r#"{"a":[1,-2.5,"s",null,true,false,{"b":{}}],"c":"\u0041","d":2.5e-1}"#;
        let value: Value = parse(text).unwrap();
        assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
        let map: BTreeMap<String, Option<String>> = parse(r#"{"x":"1","y":null}"#).unwrap();
        assert_eq!(map["x"].as_deref(), Some("1"));
        assert_eq!(map["y"], None);
        // An unpaired surrogate reads as U+FFFD, a paired one as its character.
        assert_eq!(parse::<String>(r#""\ud800x""#), Ok("\u{FFFD}x".into()));
        assert_eq!(parse::<String>(r#""\udc00""#), Ok("\u{FFFD}".into()));
        assert_eq!(parse::<String>(r#""\ud800\u0041""#), Ok("\u{FFFD}A".into()));
    }
}
