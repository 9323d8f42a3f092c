//! Contacts and short codes of the account settings: phone numbers, the anti-phishing code and the
//! 6-digit one-time codes of authenticator apps.
//!
//! | value | rule | violation |
//! |---|---|---|
//! | phone number | an optional leading `+`, then digits, spaces, `-`, `.`, `(` and `)`, with 5 to 15 digits (E.164); normalized to `+` and the digits | [`Violation::PhoneFormat`] |
//! | anti-phishing code | 4 to 20 ASCII letters or digits | [`Violation::AntiCodeFormat`] |
//! | one-time code | exactly 6 ASCII digits | [`Violation::OtpFormat`] |
//!
//! Surrounding whitespace is trimmed away before each check (these values are pasted, and the
//! backend stores or compares the trimmed text). Text that is empty after trimming is
//! [`Violation::Required`].

use super::Violation;

/// Fewest digits of a phone number.
pub const MIN_PHONE_DIGITS: usize = 5;
/// Most digits of a phone number (E.164).
pub const MAX_PHONE_DIGITS: usize = 15;
/// Shortest anti-phishing code, in characters.
pub const MIN_ANTI_CODE_CHARS: usize = 4;
/// Longest anti-phishing code, in characters.
pub const MAX_ANTI_CODE_CHARS: usize = 20;
/// Digits of a one-time code.
pub const OTP_DIGITS: usize = 6;

/// The phone number typed as `text` in its stored form, `+` and its digits (`"+49 (170) 123-45.67"`
/// gives `"+491701234567"`): [`Violation::Required`] when blank, [`Violation::PhoneFormat`] when it
/// has other characters than a leading `+`, digits, spaces, `-`, `.`, `(` and `)`, or fewer than 5 or
/// more than 15 digits.
pub fn normalize_phone(text: &str) -> Result<String, Violation> {
    let text = text.trim();
    if text.is_empty() {
        return Err(Violation::Required);
    }
    let rest = text.strip_prefix('+').unwrap_or(text);
    let chars_ok = rest
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, ' ' | '-' | '.' | '(' | ')'));
    let digits: String = rest.chars().filter(char::is_ascii_digit).collect();
    if chars_ok && (MIN_PHONE_DIGITS..=MAX_PHONE_DIGITS).contains(&digits.len()) {
        Ok(format!("+{digits}"))
    } else {
        Err(Violation::PhoneFormat)
    }
}

/// Checks an anti-phishing code (trimmed): [`Violation::Required`] when blank,
/// [`Violation::AntiCodeFormat`] unless it is 4 to 20 ASCII letters or digits.
pub fn validate_anti_code(text: &str) -> Result<(), Violation> {
    let code = text.trim();
    if code.is_empty() {
        return Err(Violation::Required);
    }
    if (MIN_ANTI_CODE_CHARS..=MAX_ANTI_CODE_CHARS).contains(&code.chars().count())
        && code.chars().all(|c| c.is_ascii_alphanumeric())
    {
        Ok(())
    } else {
        Err(Violation::AntiCodeFormat)
    }
}

/// Checks a one-time code of an authenticator app (trimmed): [`Violation::Required`] when blank,
/// [`Violation::OtpFormat`] unless it is exactly 6 ASCII digits. Whether the code is the right one
/// is for the backend to decide.
pub fn validate_otp_code(text: &str) -> Result<(), Violation> {
    let code = text.trim();
    if code.is_empty() {
        return Err(Violation::Required);
    }
    if code.len() == OTP_DIGITS && code.bytes().all(|b| b.is_ascii_digit()) {
        Ok(())
    } else {
        Err(Violation::OtpFormat)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phones_normalize_to_plus_and_digits() {
        for (text, phone) in [
            ("+491701234567", "+491701234567"),
            ("+49 (170) 123-45.67", "+491701234567"),
            (" 12345 ", "+12345"),
            ("123456789012345", "+123456789012345"),
            ("(030) 1234", "+0301234"),
        ] {
            assert_eq!(normalize_phone(text).as_deref(), Ok(phone), "{text:?}");
        }
        for text in [
            "1234",
            "1234567890123456",
            "++12345",
            "12+345",
            "12345a",
            "+49 170/1234",
            "١٢٣٤٥٦",
            "+ - ( ) .",
        ] {
            assert_eq!(
                normalize_phone(text),
                Err(Violation::PhoneFormat),
                "{text:?}"
            );
        }
        assert_eq!(normalize_phone(""), Err(Violation::Required));
        assert_eq!(normalize_phone("   "), Err(Violation::Required));
    }

    #[test]
    fn anti_codes_are_4_to_20_ascii_letters_or_digits() {
        for code in ["abcd", "Kestrel42", " Kestrel42 ", &"a".repeat(20), "1234"] {
            assert_eq!(validate_anti_code(code), Ok(()), "{code:?}");
        }
        for code in [
            "abc",
            &"a".repeat(21),
            "ab cd",
            "abc-d",
            "äbcd",
            "abcd!",
            "abc１",
        ] {
            assert_eq!(
                validate_anti_code(code),
                Err(Violation::AntiCodeFormat),
                "{code:?}"
            );
        }
        assert_eq!(validate_anti_code(" "), Err(Violation::Required));
    }

    #[test]
    fn otp_codes_are_6_digits() {
        for code in ["123456", "000000", " 654321\n"] {
            assert_eq!(validate_otp_code(code), Ok(()), "{code:?}");
        }
        for code in ["12345", "1234567", "12345a", "123 456", "١٢٣٤٥٦", "+12345"] {
            assert_eq!(
                validate_otp_code(code),
                Err(Violation::OtpFormat),
                "{code:?}"
            );
        }
        assert_eq!(validate_otp_code(""), Err(Violation::Required));
    }
}
