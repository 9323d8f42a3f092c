//! Input rules of the product (spec section 5), shared by the webapp (as you type, before a request)
//! and the backend (on the request), so both refuse the same values with the same message.
//!
//! | rule | function |
//! |---|---|
//! | passwords A, B, C | [`validate_password`] |
//! | password forms: confirmation, new ≠ old | [`validate_password_change`] |
//! | e-mail | [`validate_email`] |
//! | phone numbers, anti-phishing code, one-time codes | [`normalize_phone`], [`validate_anti_code`], [`validate_otp_code`] |
//! | emptiness, required fields | [`is_empty`], [`validate_required`] |
//! | number inputs, keystroke filter | [`validate_number_input`], [`sanitize_number_input`] |
//! | seconds contract quantity | [`validate_seconds_quantity`] |
//! | addresses (BTC, ETH/ERC-20/BEP-20, TRON) | [`validate_address`] |
//! | deposit and withdrawal forms | [`validate_deposit_form`], [`validate_withdrawal_form`] |
//! | identity and bank card forms | [`validate_identity_form`], [`validate_bank_card_form`] |
//! | spot orders: side, type, tick and step sizes, minimum notional, balance | [`validate_spot_order`] |
//!
//! # Results are data
//! A broken rule is not an error of the call: it is the answer. Single-value checks return
//! `Result<(), Violation>`, and a [`Violation`] serializes as the usual `{code, key, params}` (the
//! wasm exports return it, or `null` when the value is fine). Form checks return every broken rule at
//! once as a list of [`ValidationError`]s, `{field, code, key, params}` each (empty when the form is
//! fine), in the order of the form's fields. `key` is an i18n key (`errors.passwordFormat`, …) and
//! `params` never holds a password. Only a malformed call — an unknown rule name, an argument of the
//! wrong shape, a bad decimal from the backend such as a withdrawal's available balance — fails with
//! a [`CoreError`](crate::CoreError), which the wasm exports throw as they always do. A violation
//! converts into a `CoreError` ([`CoreError::Invalid`](crate::CoreError::Invalid)) for a backend
//! service that answers it with `?`.
//!
//! # Missing values
//! Empty text is [`Violation::Required`] for every single-value check. In the typed forms a field
//! that is absent, `null`, empty or only whitespace is missing; otherwise values are checked exactly
//! as given (surrounding spaces are not trimmed away, so what passes is what gets sent).

pub mod address;
pub mod contact;
pub mod email;
pub mod empty;
pub mod funds;
pub mod kyc;
pub mod number;
pub mod password;
#[cfg(test)]
mod proptests;
pub mod spot;
mod violation;

pub use address::{Network, validate_address};
pub use contact::{normalize_phone, validate_anti_code, validate_otp_code};
pub use email::validate_email;
pub use empty::{ValueShape, is_empty, validate_required};
pub use funds::{DepositForm, WithdrawalForm, validate_deposit_form, validate_withdrawal_form};
pub use kyc::{
    BankCardForm, IdentityForm, MAX_ADDRESS_CHARS, MAX_NAME_CHARS, validate_bank_card_form,
    validate_identity_form,
};
pub use number::{sanitize_number_input, validate_number_input, validate_seconds_quantity};
pub use password::{PasswordChange, PasswordRule, validate_password, validate_password_change};
pub use spot::{SpotOrderForm, validate_spot_order};
pub use violation::{ValidationError, Violation};

/// The text of a form field unless it is missing (absent, `null`, empty or only whitespace).
fn filled(value: &Option<String>) -> Option<&str> {
    value.as_deref().filter(|text| !text.trim().is_empty())
}
