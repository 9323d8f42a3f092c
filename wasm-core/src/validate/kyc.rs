//! The identity (basic verification) and bank card forms (spec sections 3 and 5): every field's error
//! at once, each with the field's name.
//!
//! Beyond "required", the spec gives no formats; these checks refuse only what is obviously wrong:
//!
//! | field | rule |
//! |---|---|
//! | `name`, `country`, `bankName`, `branch` | at most 100 characters |
//! | `bankAddress`, `homeAddress` | at most 200 characters |
//! | `idCard` | 4 to 32 characters: ASCII letters, digits and `-` (ID cards and passports worldwide) |
//! | `cardType` | `idCard` or `passport` |
//! | `cardNumber` | 12 to 19 digits (ISO/IEC 7812), spaces between digit groups allowed |
//! | `bankPhone` | an optional leading `+`, then digits, spaces, `-`, `(` and `)`, with 5 to 15 digits (E.164) |
//! | `swiftCode` | 8 or 11 characters: 4 letters (bank), 2 letters (country), 2 letters or digits (location), optionally 3 letters or digits (branch); either case |
//!
//! The card number is deliberately not checked with the Luhn algorithm: some bank cards in use
//! (older UnionPay debit cards among them) do not carry a Luhn check digit, and a refused valid card
//! cannot be bound at all, while a mistyped one is caught by the bank at the first transfer.

use serde::Deserialize;

use super::{ValidationError, Violation, filled};

/// The most characters of a name-like field (`name`, `country`, `bankName`, `branch`).
pub const MAX_NAME_CHARS: u32 = 100;
/// The most characters of an address field (`bankAddress`, `homeAddress`).
pub const MAX_ADDRESS_CHARS: u32 = 200;

/// The identity verification form; absent, `null` and blank fields are missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct IdentityForm {
    /// The full name as on the document.
    #[serde(default)]
    pub name: Option<String>,
    /// The document number (ID card or passport number).
    #[serde(default)]
    pub id_card: Option<String>,
    /// The issuing country.
    #[serde(default)]
    pub country: Option<String>,
    /// The document type: `idCard` or `passport`.
    #[serde(default)]
    pub card_type: Option<String>,
}

/// Checks the identity form; returns every error (empty when valid), in the order `name`, `idCard`,
/// `country`, `cardType`: [`Violation::Required`], [`Violation::TooLong`],
/// [`Violation::IdNumberFormat`] or [`Violation::InvalidCardType`] (rules in
/// [`crate::validate::kyc`]).
pub fn validate_identity_form(form: &IdentityForm) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    required(&mut errors, "name", &form.name, |name| {
        max_chars(name, MAX_NAME_CHARS)
    });
    required(&mut errors, "idCard", &form.id_card, |number| {
        let ok = (4..=32).contains(&number.len())
            && number
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-');
        if ok {
            Ok(())
        } else {
            Err(Violation::IdNumberFormat)
        }
    });
    required(&mut errors, "country", &form.country, |country| {
        max_chars(country, MAX_NAME_CHARS)
    });
    required(&mut errors, "cardType", &form.card_type, |card_type| {
        if matches!(card_type, "idCard" | "passport") {
            Ok(())
        } else {
            Err(Violation::InvalidCardType {
                value: card_type.to_owned(),
            })
        }
    });
    errors
}

/// The bank card form; absent, `null` and blank fields are missing. Only the card number and the bank
/// name are required.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BankCardForm {
    /// The card number.
    #[serde(default)]
    pub card_number: Option<String>,
    /// The bank's name.
    #[serde(default)]
    pub bank_name: Option<String>,
    /// The bank's address (optional).
    #[serde(default)]
    pub bank_address: Option<String>,
    /// The bank's phone number (optional).
    #[serde(default)]
    pub bank_phone: Option<String>,
    /// The international bank (SWIFT/BIC) code (optional).
    #[serde(default)]
    pub swift_code: Option<String>,
    /// The branch (optional).
    #[serde(default)]
    pub branch: Option<String>,
    /// The card holder's home address (optional).
    #[serde(default)]
    pub home_address: Option<String>,
}

/// Checks the bank card form; returns every error (empty when valid), in the order `cardNumber`,
/// `bankName`, `bankAddress`, `bankPhone`, `swiftCode`, `branch`, `homeAddress`:
/// [`Violation::Required`], [`Violation::CardNumberFormat`], [`Violation::PhoneFormat`],
/// [`Violation::SwiftFormat`] or [`Violation::TooLong`] (rules in [`crate::validate::kyc`]).
pub fn validate_bank_card_form(form: &BankCardForm) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    required(&mut errors, "cardNumber", &form.card_number, |number| {
        if is_card_number(number) {
            Ok(())
        } else {
            Err(Violation::CardNumberFormat)
        }
    });
    required(&mut errors, "bankName", &form.bank_name, |name| {
        max_chars(name, MAX_NAME_CHARS)
    });
    optional(&mut errors, "bankAddress", &form.bank_address, |address| {
        max_chars(address, MAX_ADDRESS_CHARS)
    });
    optional(&mut errors, "bankPhone", &form.bank_phone, |phone| {
        if is_phone(phone) {
            Ok(())
        } else {
            Err(Violation::PhoneFormat)
        }
    });
    optional(&mut errors, "swiftCode", &form.swift_code, |code| {
        if is_swift(code) {
            Ok(())
        } else {
            Err(Violation::SwiftFormat)
        }
    });
    optional(&mut errors, "branch", &form.branch, |branch| {
        max_chars(branch, MAX_NAME_CHARS)
    });
    optional(&mut errors, "homeAddress", &form.home_address, |address| {
        max_chars(address, MAX_ADDRESS_CHARS)
    });
    errors
}

/// Records [`Violation::Required`] for a missing `value`, else the result of `check`.
fn required(
    errors: &mut Vec<ValidationError>,
    field: &'static str,
    value: &Option<String>,
    check: impl FnOnce(&str) -> Result<(), Violation>,
) {
    let result = filled(value).map_or(Err(Violation::Required), check);
    if let Err(violation) = result {
        errors.push(ValidationError::new(field, violation));
    }
}

/// Records the result of `check` for a present `value`; a missing one is fine.
fn optional(
    errors: &mut Vec<ValidationError>,
    field: &'static str,
    value: &Option<String>,
    check: impl FnOnce(&str) -> Result<(), Violation>,
) {
    if let Some(Err(violation)) = filled(value).map(check) {
        errors.push(ValidationError::new(field, violation));
    }
}

fn max_chars(text: &str, max: u32) -> Result<(), Violation> {
    if text.chars().count() > max as usize {
        Err(Violation::TooLong { max })
    } else {
        Ok(())
    }
}

fn is_card_number(number: &str) -> bool {
    let groups_ok = number
        .split(' ')
        .all(|group| !group.is_empty() && group.bytes().all(|b| b.is_ascii_digit()));
    let digits = number.bytes().filter(u8::is_ascii_digit).count();
    groups_ok && (12..=19).contains(&digits)
}

fn is_phone(phone: &str) -> bool {
    let rest = phone.strip_prefix('+').unwrap_or(phone);
    let chars_ok = rest
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b' ' | b'-' | b'(' | b')'));
    let digits = rest.bytes().filter(u8::is_ascii_digit).count();
    chars_ok
        && rest.starts_with(|c: char| c.is_ascii_digit() || c == '(')
        && (5..=15).contains(&digits)
}

fn is_swift(code: &str) -> bool {
    let bytes = code.as_bytes();
    matches!(bytes.len(), 8 | 11)
        && bytes[..6].iter().all(u8::is_ascii_alphabetic)
        && bytes[6..].iter().all(u8::is_ascii_alphanumeric)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(errors: &[ValidationError]) -> Vec<(&'static str, &'static str)> {
        errors
            .iter()
            .map(|e| (e.field, e.violation.code()))
            .collect()
    }

    fn some(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    #[test]
    fn identity() {
        let form = IdentityForm {
            name: some("Ada Lovelace"),
            id_card: some("11010519491231002X"),
            country: some("GB"),
            card_type: some("idCard"),
        };
        assert!(validate_identity_form(&form).is_empty());
        assert_eq!(
            codes(&validate_identity_form(&IdentityForm::default())),
            [
                ("name", "field_required"),
                ("idCard", "field_required"),
                ("country", "field_required"),
                ("cardType", "field_required")
            ]
        );
        let bad = IdentityForm {
            name: Some("x".repeat(101)),
            id_card: some("AB 123"),
            country: some(" "),
            card_type: some("driver"),
        };
        assert_eq!(
            codes(&validate_identity_form(&bad)),
            [
                ("name", "too_long"),
                ("idCard", "id_number_format"),
                ("country", "field_required"),
                ("cardType", "invalid_card_type")
            ]
        );
    }

    #[test]
    fn bank_card() {
        let minimal = BankCardForm {
            card_number: some("6222 0212 3456 7890 128"),
            bank_name: some("ICBC"),
            ..BankCardForm::default()
        };
        assert!(validate_bank_card_form(&minimal).is_empty());
        let full = BankCardForm {
            bank_address: some("1 Main St"),
            bank_phone: some("+1 (555) 010-0199"),
            swift_code: some("deutdeff500"),
            branch: some("Frankfurt"),
            home_address: some("2 Side St"),
            ..minimal.clone()
        };
        assert!(validate_bank_card_form(&full).is_empty());
        assert_eq!(
            codes(&validate_bank_card_form(&BankCardForm::default())),
            [
                ("cardNumber", "field_required"),
                ("bankName", "field_required")
            ]
        );
        let bad = BankCardForm {
            card_number: some("4111-1111-1111-1111"),
            bank_phone: some("call me"),
            swift_code: some("DEUT1EFF"),
            home_address: Some("x".repeat(201)),
            ..minimal
        };
        assert_eq!(
            codes(&validate_bank_card_form(&bad)),
            [
                ("cardNumber", "card_number_format"),
                ("bankPhone", "phone_format"),
                ("swiftCode", "swift_format"),
                ("homeAddress", "too_long")
            ]
        );
    }

    #[test]
    fn formats() {
        assert!(is_card_number("411111111111"));
        assert!(is_card_number("4111111111111111111"));
        assert!(!is_card_number("41111111111"));
        assert!(!is_card_number("41111111111111111111"));
        assert!(!is_card_number("4111  1111 1111 1111"));
        assert!(!is_card_number(" 4111111111111111"));
        assert!(is_swift("DEUTDEFF"));
        assert!(is_swift("DEUTDEFF500"));
        assert!(!is_swift("DEUTDEF"));
        assert!(!is_swift("DEUTDEFF50"));
        assert!(!is_swift("DEUTDEFF5000"));
        assert!(!is_swift("DEUTDEFF-00"));
        assert!(!is_swift("DEÜTDEFF"));
        assert!(is_phone("12345"));
        assert!(is_phone("+86 138-0013-8000"));
        assert!(!is_phone("1234"));
        assert!(!is_phone("+1234567890123456"));
        assert!(!is_phone("++12345"));
        assert!(!is_phone("-12345"));
    }
}
