//! Native adapters of the `validate` exports (see `mod.rs`). Single-value checks return the violation
//! or `null`, form checks the list of field errors, exactly as the wasm exports do.

use std::collections::BTreeMap;

use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::convert::max_decimals_from_number;
use wasm_core::money::parse_decimal;
use wasm_core::validate::{self, PasswordRule, ValueShape};

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &[
    "validatePassword",
    "validatePasswordChange",
    "validateEmail",
    "normalizePhone",
    "validateAntiCode",
    "validateOtpCode",
    "isEmpty",
    "validateRequired",
    "validateNumberInput",
    "sanitizeNumberInput",
    "validateSecondsQuantity",
    "validateAddress",
    "validateDepositForm",
    "validateWithdrawalForm",
    "validateIdentityForm",
    "validateBankCardForm",
    "validateSpotOrder",
];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS
        .contains(&function)
        .then(|| call_export(function, args))
}

/// Reads a structured argument like the wasm exports do (its JSON text, read by the crate's JSON
/// reader), failing with `invalid_argument`.
///
/// serde_json also reads a form given as an array (fields in order), which the wasm reader refuses;
/// vectors keep to objects, the only forms the webapp sends, and to non-objects that both refuse
/// (strings, numbers, `null`).
fn from_json<T: DeserializeOwned>(
    args: &Args,
    i: usize,
    name: &'static str,
) -> Result<T, CoreError> {
    serde_json::from_value(args.value(i).clone()).map_err(|_| CoreError::InvalidArgument { name })
}

fn call_export(function: &str, args: &Args) -> Result<Value, CoreError> {
    Ok(match function {
        "validatePassword" => {
            args.arity(2);
            let rule = PasswordRule::from_name(args.string(1))
                .ok_or(CoreError::InvalidArgument { name: "rule" })?;
            to_json(&validate::validate_password(args.string(0), rule).err())
        }
        "validatePasswordChange" => {
            args.arity(1);
            to_json(&validate::validate_password_change(&from_json(
                args, 0, "input",
            )?))
        }
        "validateEmail" => {
            args.arity(1);
            to_json(&validate::validate_email(args.string(0)).err())
        }
        "normalizePhone" => {
            args.arity(1);
            match validate::normalize_phone(args.string(0)) {
                Ok(phone) => serde_json::json!({ "phone": phone, "error": null }),
                Err(violation) => {
                    serde_json::json!({ "phone": null, "error": to_json(&violation) })
                }
            }
        }
        "validateAntiCode" => {
            args.arity(1);
            to_json(&validate::validate_anti_code(args.string(0)).err())
        }
        "validateOtpCode" => {
            args.arity(1);
            to_json(&validate::validate_otp_code(args.string(0)).err())
        }
        "isEmpty" => {
            args.arity(1);
            validate::is_empty(from_json(args, 0, "value")?).into()
        }
        "validateRequired" => {
            args.arity(2);
            let form: BTreeMap<String, ValueShape> = from_json(args, 0, "form")?;
            let fields: Vec<String> = from_json(args, 1, "fields")?;
            to_json(&validate::validate_required(&form, &fields).err())
        }
        "validateNumberInput" => {
            args.arity(2);
            let max_decimals = args
                .optional_number(1)
                .map(max_decimals_from_number)
                .transpose()?;
            to_json(&validate::validate_number_input(args.string(0), max_decimals).err())
        }
        "sanitizeNumberInput" => {
            args.arity(2);
            let max_decimals = args
                .optional_number(1)
                .map(max_decimals_from_number)
                .transpose()?;
            validate::sanitize_number_input(args.string(0), max_decimals).into()
        }
        "validateSecondsQuantity" => {
            args.arity(3);
            let min = args.optional_string(1).map(parse_decimal).transpose()?;
            let max = args.optional_string(2).map(parse_decimal).transpose()?;
            to_json(&validate::validate_seconds_quantity(args.string(0), min, max).err())
        }
        "validateAddress" => {
            args.arity(2);
            to_json(&validate::validate_address(args.string(0), args.string(1)).err())
        }
        "validateDepositForm" => {
            args.arity(1);
            to_json(&validate::validate_deposit_form(&from_json(
                args, 0, "form",
            )?))
        }
        "validateWithdrawalForm" => {
            args.arity(1);
            to_json(&validate::validate_withdrawal_form(&from_json(
                args, 0, "form",
            )?)?)
        }
        "validateIdentityForm" => {
            args.arity(1);
            to_json(&validate::validate_identity_form(&from_json(
                args, 0, "form",
            )?))
        }
        "validateBankCardForm" => {
            args.arity(1);
            to_json(&validate::validate_bank_card_form(&from_json(
                args, 0, "form",
            )?))
        }
        "validateSpotOrder" => {
            args.arity(1);
            to_json(&validate::validate_spot_order(&from_json(
                args, 0, "form",
            )?)?)
        }
        other => unreachable!("{other} is not in FUNCTIONS"),
    })
}
