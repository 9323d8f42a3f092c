//! Passwords (spec section 5): the three rules, and the checks of a password form (confirmation,
//! new password differs from the old one).
//!
//! | rule | length | characters | must contain |
//! |---|---|---|---|
//! | A (registration) | at least 8 | any | an upper-case letter, a lower-case letter and a digit |
//! | B | 6 to 20 | letters, digits and ASCII punctuation ``!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~`` | — |
//! | C | at least 6 | any | two of: letters, digits, symbols (every other character) |
//!
//! Letters are `A`–`Z` and `a`–`z`, digits `0`–`9`. Lengths count characters, not bytes. No rule
//! allows whitespace or control characters: they are invisible, and a pasted trailing space would
//! otherwise lock the user out later.

use std::fmt;

use serde::Deserialize;

use super::{ValidationError, Violation};

/// One of the product's password rules (table in [`crate::validate::password`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum PasswordRule {
    /// At least 8 characters with an upper-case letter, a lower-case letter and a digit.
    #[serde(alias = "a")]
    A,
    /// 6 to 20 letters, digits and ASCII punctuation.
    #[serde(alias = "b")]
    B,
    /// At least 6 characters from at least two of letters, digits and symbols.
    #[serde(alias = "c")]
    C,
}

impl PasswordRule {
    /// The rule named `name` (`A`, `B` or `C`, either case).
    pub fn from_name(name: &str) -> Option<Self> {
        match name {
            "A" | "a" => Some(Self::A),
            "B" | "b" => Some(Self::B),
            "C" | "c" => Some(Self::C),
            _ => None,
        }
    }

    /// Whether `password` follows this rule.
    pub fn accepts(self, password: &str) -> bool {
        if password
            .chars()
            .any(|c| c.is_whitespace() || c.is_control())
        {
            return false;
        }
        let length = password.chars().count();
        let has = |test: fn(&char) -> bool| password.chars().any(|c| test(&c));
        match self {
            Self::A => {
                length >= 8
                    && has(char::is_ascii_uppercase)
                    && has(char::is_ascii_lowercase)
                    && has(char::is_ascii_digit)
            }
            Self::B => {
                (6..=20).contains(&length)
                    && password
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c.is_ascii_punctuation())
            }
            Self::C => {
                let classes = [
                    has(char::is_ascii_alphabetic),
                    has(char::is_ascii_digit),
                    has(|c| !c.is_ascii_alphanumeric()),
                ];
                length >= 6 && classes.into_iter().filter(|&present| present).count() >= 2
            }
        }
    }
}

impl fmt::Display for PasswordRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::A => "A",
            Self::B => "B",
            Self::C => "C",
        })
    }
}

/// Checks one password against `rule`: [`Violation::Required`] when empty,
/// [`Violation::PasswordFormat`] ('Invalid password format') when it breaks the rule.
pub fn validate_password(password: &str, rule: PasswordRule) -> Result<(), Violation> {
    if password.is_empty() {
        Err(Violation::Required)
    } else if rule.accepts(password) {
        Ok(())
    } else {
        Err(Violation::PasswordFormat { rule })
    }
}

/// A password form: registration, reset, or change (with the old password). Absent and `null`
/// fields read as `None`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PasswordChange {
    /// The rule the new password must follow.
    pub rule: PasswordRule,
    /// The current password: `None` when the form has no such field (registration, reset); when
    /// present it is required, and the new password must differ from it.
    #[serde(default)]
    pub old_password: Option<String>,
    /// The new password.
    #[serde(default)]
    pub password: Option<String>,
    /// The new password typed again.
    #[serde(default)]
    pub confirm_password: Option<String>,
}

/// Checks a password form and returns every field's error at once (empty when it is valid), in the
/// order `oldPassword`, `password`, `confirmPassword`:
///
/// - `oldPassword` (when present): [`Violation::Required`] when empty.
/// - `password`: [`Violation::Required`], [`Violation::PasswordFormat`], or
///   [`Violation::PasswordUnchanged`] when it equals a non-empty old password.
/// - `confirmPassword`: [`Violation::Required`], or [`Violation::PasswordMismatch`] ('Passwords do not
///   match') when it differs from the password.
pub fn validate_password_change(form: &PasswordChange) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    let old = form.old_password.as_deref();
    let password = form.password.as_deref().unwrap_or_default();
    let confirm = form.confirm_password.as_deref().unwrap_or_default();
    if old == Some("") {
        errors.push(ValidationError::new("oldPassword", Violation::Required));
    }
    if let Err(violation) = validate_password(password, form.rule) {
        errors.push(ValidationError::new("password", violation));
    } else if old == Some(password) {
        errors.push(ValidationError::new(
            "password",
            Violation::PasswordUnchanged,
        ));
    }
    if confirm.is_empty() {
        errors.push(ValidationError::new("confirmPassword", Violation::Required));
    } else if confirm != password {
        errors.push(ValidationError::new(
            "confirmPassword",
            Violation::PasswordMismatch,
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_a() {
        for ok in ["Abcdefg1", "Passw0rd", "aB3$%^&*()", "Ünïcödé1aA"] {
            assert!(PasswordRule::A.accepts(ok), "{ok}");
        }
        for bad in [
            "Abcdef1",
            "abcdefg1",
            "ABCDEFG1",
            "Abcdefgh",
            "Abcd efg1",
            "Abcdefg1\n",
            "Abcdefg1\u{0}",
        ] {
            assert!(!PasswordRule::A.accepts(bad), "{bad:?}");
        }
    }

    #[test]
    fn rule_b() {
        for ok in [
            "abc123",
            "abcdef",
            "A!b@c#",
            "12345678901234567890",
            "a_b-c.d",
        ] {
            assert!(PasswordRule::B.accepts(ok), "{ok}");
        }
        for bad in [
            "abc12",
            "123456789012345678901",
            "abc 123",
            "abcdé1",
            "abc123€",
        ] {
            assert!(!PasswordRule::B.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn rule_c() {
        for ok in ["abc123", "abc!!!", "123!!!", "密码密码12", "aaaaa1"] {
            assert!(PasswordRule::C.accepts(ok), "{ok}");
        }
        for bad in ["abcdef", "123456", "!!!!!!", "ab12", "abc 123"] {
            assert!(!PasswordRule::C.accepts(bad), "{bad}");
        }
    }

    #[test]
    fn single_password() {
        assert_eq!(
            validate_password("", PasswordRule::A),
            Err(Violation::Required)
        );
        assert_eq!(
            validate_password("short", PasswordRule::A),
            Err(Violation::PasswordFormat {
                rule: PasswordRule::A
            })
        );
        assert_eq!(validate_password("Abcdefg1", PasswordRule::A), Ok(()));
    }

    fn change(old: Option<&str>, password: &str, confirm: &str) -> Vec<(&'static str, String)> {
        let form = PasswordChange {
            rule: PasswordRule::A,
            old_password: old.map(Into::into),
            password: Some(password.into()),
            confirm_password: Some(confirm.into()),
        };
        validate_password_change(&form)
            .into_iter()
            .map(|e| (e.field, e.violation.code().to_owned()))
            .collect()
    }

    #[test]
    fn password_forms() {
        assert!(change(None, "Abcdefg1", "Abcdefg1").is_empty());
        assert!(change(Some("Old12345"), "Abcdefg1", "Abcdefg1").is_empty());
        assert_eq!(
            change(Some("Abcdefg1"), "Abcdefg1", "Abcdefg1"),
            [("password", "password_unchanged".into())]
        );
        assert_eq!(
            change(None, "Abcdefg1", "Abcdefg2"),
            [("confirmPassword", "password_mismatch".into())]
        );
        assert_eq!(
            change(Some(""), "", ""),
            [
                ("oldPassword", "field_required".into()),
                ("password", "field_required".into()),
                ("confirmPassword", "field_required".into())
            ]
        );
        assert_eq!(
            change(None, "weak", "weak"),
            [("password", "password_format".into())]
        );
    }
}
