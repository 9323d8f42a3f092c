//! Reads the `bids` and `asks` of a depth message straight from its JSON text, borrowing every price
//! and quantity from the text: no JSON value tree, no string copies, no floats. Members other than
//! `bids` and `asks` are skipped (by matching brackets outside strings, without validating them).

use crate::error::CoreError;

/// The `[price, quantity]` pairs of one side, borrowed from the message.
pub(super) type Pairs<'a> = Vec<(&'a str, &'a str)>;

/// Parses `{"bids": [[p, q], …], "asks": [[p, q], …], …}`; prices and quantities are strings
/// without escapes or JSON numbers (returned as their text).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn parse(text: &str) -> Result<(Pairs<'_>, Pairs<'_>), CoreError> {
    let mut scanner = Scanner { text, pos: 0 };
    let (mut bids, mut asks) = (None, None);
    scanner.expect(b'{')?;
    if !scanner.eat(b'}') {
        loop {
            let (key, escaped) = scanner.string()?;
            scanner.expect(b':')?;
            match key {
                "bids" if !escaped && bids.is_none() => bids = Some(scanner.pairs()?),
                "asks" if !escaped && asks.is_none() => asks = Some(scanner.pairs()?),
                "bids" | "asks" if !escaped => return Err(malformed()),
                _ => scanner.skip_value()?,
            }
            if scanner.eat(b'}') {
                break;
            }
            scanner.expect(b',')?;
        }
    }
    scanner.skip_whitespace();
    if scanner.pos != text.len() {
        return Err(malformed());
    }
    Ok((bids.ok_or_else(malformed)?, asks.ok_or_else(malformed)?))
}

fn malformed() -> CoreError {
    CoreError::InvalidArgument { name: "message" }
}

struct Scanner<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Scanner<'a> {
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.pos).copied()
    }

    #[cfg_attr(optimize_hot, optimize(speed))]
    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.pos += 1;
        }
    }

    /// Skips whitespace and consumes `byte` if it comes next.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_whitespace();
        let found = self.peek() == Some(byte);
        if found {
            self.pos += 1;
        }
        found
    }

    #[cfg_attr(optimize_hot, optimize(speed))]
    fn expect(&mut self, byte: u8) -> Result<(), CoreError> {
        if self.eat(byte) {
            Ok(())
        } else {
            Err(malformed())
        }
    }

    /// A string's raw content (between the quotes) and whether it holds escapes.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn string(&mut self) -> Result<(&'a str, bool), CoreError> {
        self.expect(b'"')?;
        let start = self.pos;
        let mut escaped = false;
        loop {
            match self.peek().ok_or_else(malformed)? {
                b'"' => break,
                b'\\' => {
                    escaped = true;
                    self.pos += 2;
                }
                byte if byte < 0x20 => return Err(malformed()),
                _ => self.pos += 1,
            }
        }
        // The quote is ASCII, so `start..pos` lies on character boundaries.
        let content = self.text.get(start..self.pos).ok_or_else(malformed)?;
        self.pos += 1;
        Ok((content, escaped))
    }

    /// The text of a JSON number, left for the decimal parser to judge (it refuses exponents).
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn number(&mut self) -> Result<&'a str, CoreError> {
        self.skip_whitespace();
        let start = self.pos;
        while matches!(
            self.peek(),
            Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
        ) {
            self.pos += 1;
        }
        if self.pos == start {
            return Err(malformed());
        }
        Ok(&self.text[start..self.pos])
    }

    /// A price or quantity: a string without escapes, or a number.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn scalar(&mut self) -> Result<&'a str, CoreError> {
        self.skip_whitespace();
        if self.peek() == Some(b'"') {
            match self.string()? {
                (text, false) => Ok(text),
                (_, true) => Err(malformed()),
            }
        } else {
            self.number()
        }
    }

    /// `[[p, q], …]`.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn pairs(&mut self) -> Result<Pairs<'a>, CoreError> {
        let mut pairs = Vec::new();
        self.expect(b'[')?;
        if self.eat(b']') {
            return Ok(pairs);
        }
        loop {
            self.expect(b'[')?;
            let price = self.scalar()?;
            self.expect(b',')?;
            let quantity = self.scalar()?;
            self.expect(b']')?;
            pairs.push((price, quantity));
            if self.eat(b']') {
                return Ok(pairs);
            }
            self.expect(b',')?;
        }
    }

    /// Skips any value: a string, a container up to its matching bracket, or a bare token.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn skip_value(&mut self) -> Result<(), CoreError> {
        self.skip_whitespace();
        match self.peek().ok_or_else(malformed)? {
            b'"' => self.string().map(|_| ()),
            b'[' | b'{' => {
                let mut depth = 0_usize;
                loop {
                    match self.peek().ok_or_else(malformed)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'[' | b'{' => depth += 1,
                        b']' | b'}' => {
                            depth -= 1;
                            if depth == 0 {
                                self.pos += 1;
                                return Ok(());
                            }
                        }
                        _ => {}
                    }
                    self.pos += 1;
                }
            }
            _ => {
                let start = self.pos;
                let token = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.');
                while self.peek().is_some_and(token) {
                    self.pos += 1;
                }
                if self.pos == start {
                    Err(malformed())
                } else {
                    Ok(())
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_sides_and_skips_the_rest() {
        let text = r#" { "e": "depth", "u": [1, {"x": "]}"}], "bids": [["1.5", "2"], [3, 4.25]],
            "s": "BTC\"USDT", "asks": [], "t": null } "#;
        let (bids, asks) = parse(text).unwrap();
        assert_eq!(bids, [("1.5", "2"), ("3", "4.25")]);
        assert!(asks.is_empty());
    }

    #[test]
    fn refuses_malformed_messages() {
        for text in [
            "",
            "[]",
            "{}",
            r#"{"bids": []}"#,
            r#"{"bids": [], "asks": [], "bids": []}"#,
            r#"{"bids": [["1"]], "asks": []}"#,
            r#"{"bids": [["1", "2", "3"]], "asks": []}"#,
            r#"{"bids": [["1\u0030", "2"]], "asks": []}"#,
            r#"{"bids": [[true, "2"]], "asks": []}"#,
            r#"{"bids": [], "asks": []} x"#,
            r#"{"bids": [], "asks": [],}"#,
            r#"{"bids": [], "asks": [], "x": }"#,
            r#"{"bids": [], "asks": [], "x": [1, 2}"#,
            r#"{"bids": [], "asks": [], "x": "open"#,
            "{\"bids\": [], \"asks\": [\"\u{1}\"]}",
            r#"{"bids": [["1", "2"],], "asks": []}"#,
        ] {
            assert_eq!(parse(text), Err(malformed()), "{text}");
        }
    }
}
