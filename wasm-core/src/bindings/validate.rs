//! The JavaScript exports of [`crate::validate`]. A broken rule is returned, not thrown: single-value
//! checks return its `{code, key, params}` or `null`, form checks an array of
//! `{field, code, key, params}` (empty when valid). Only a malformed argument throws, as everywhere.

use std::collections::BTreeMap;

use js_sys::{Array, ArrayBuffer, JsString, Map, Object, Symbol, Uint8Array};
use wasm_bindgen::prelude::*;

use super::{from_js, throw, to_js};
use crate::convert::max_decimals_from_number;
use crate::error::CoreError;
use crate::money::parse_decimal;
use crate::validate::{self, PasswordRule, ValueShape};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One broken rule of a form field; `key` is an i18n key, `params` its values. */
export interface ValidationError { field: string; code: string; key: string; params: Record<string, string>; }
/** A password form; `oldPassword` only when the form asks for the current password. */
export interface PasswordChangeInput {
  rule: "A" | "B" | "C"; oldPassword?: string | null; password?: string | null; confirmPassword?: string | null;
}
/** The deposit form; `screenshot` is the uploaded image's URL or id. */
export interface DepositFormInput { coin?: string | null; amount?: string | null; screenshot?: string | null; }
/** The withdrawal form and the balance it is checked against (a decimal string). */
export interface WithdrawalFormInput {
  network?: string | null; address?: string | null; amount?: string | null; fundPassword?: string | null;
  available: string; maxDecimals?: number | null;
}
/** The identity verification form. */
export interface IdentityFormInput {
  name?: string | null; idCard?: string | null; country?: string | null; cardType?: "idCard" | "passport" | string | null;
}
/** A phone number as `+` and its digits, or why it is not one. */
export type NormalizedPhone = { phone: string; error: null } | { phone: null; error: CoreErrorPayload };
/** The bank card form; only cardNumber and bankName are required. */
export interface BankCardFormInput {
  cardNumber?: string | null; bankName?: string | null; bankAddress?: string | null; bankPhone?: string | null;
  swiftCode?: string | null; branch?: string | null; homeAddress?: string | null;
}
/**
 * A spot order form with the pair's rules (tickSize, stepSize, minNotional: decimal strings) and the
 * figures it is checked against; without lastPrice a market order's value is not estimated, without
 * availableBase/availableQuote the balance is not checked. quoteAmount is for market buys only.
 */
export interface SpotOrderFormInput {
  side?: "buy" | "sell" | string | null; orderType?: "limit" | "market" | "stop_limit" | string | null;
  price?: string | null; triggerPrice?: string | null; quantity?: string | null; quoteAmount?: string | null;
  tickSize: string; stepSize: string; minNotional: string;
  lastPrice?: string | null; availableBase?: string | null; availableQuote?: string | null;
}
"#;

/// The [`ValueShape`] of any JavaScript value, read from the value itself (not its JSON text, in
/// which `NaN` would be `null` and a function nothing), as serde-wasm-bindgen's self-describing
/// reading saw it: `null`/`undefined`, booleans, numbers and `BigInt`s within 64 bits, strings,
/// arrays, `Uint8Array`s and `ArrayBuffer`s (lists of bytes), `Map`s and other objects that are not
/// iterable. Anything else (a function, a symbol, a `Set`, a larger `BigInt`) has no shape.
fn shape(value: &JsValue) -> Option<ValueShape> {
    let empty = |length: u32| length == 0;
    Some(if value.is_null() || value.is_undefined() {
        ValueShape::Null
    } else if value.as_bool().is_some() {
        ValueShape::Bool
    } else if value.is_bigint() {
        let fits = i64::try_from(value.clone()).is_ok() || u64::try_from(value.clone()).is_ok();
        fits.then_some(ValueShape::Number)?
    } else if value.as_f64().is_some() {
        ValueShape::Number
    } else if let Some(text) = value.dyn_ref::<JsString>() {
        ValueShape::Text {
            empty: empty(text.length()),
        }
    } else if Array::is_array(value) {
        ValueShape::List {
            empty: empty(value.unchecked_ref::<Array>().length()),
        }
    } else if let Some(bytes) = value.dyn_ref::<Uint8Array>() {
        ValueShape::List {
            empty: empty(bytes.length()),
        }
    } else if let Some(buffer) = value.dyn_ref::<ArrayBuffer>() {
        ValueShape::List {
            empty: empty(buffer.byte_length()),
        }
    } else if let Some(map) = value.dyn_ref::<Map>() {
        ValueShape::Map {
            empty: empty(map.size()),
        }
    } else if value.is_object() && !Symbol::iterator().js_in(value) {
        ValueShape::Map {
            empty: empty(Object::entries(value.unchecked_ref()).length()),
        }
    } else {
        return None;
    })
}

/// The fields of a form as serde-wasm-bindgen read a map: the `[key, value]` pairs of an iterable
/// (a `Map`), else the entries of an object; every key a string and every value with a [`shape`].
fn form_shapes(form: &JsValue) -> Option<BTreeMap<String, ValueShape>> {
    let pairs: Vec<JsValue> = match js_sys::try_iter(form).ok()? {
        Some(iter) => iter.collect::<Result<_, _>>().ok()?,
        None if form.is_object() => Object::entries(form.unchecked_ref()).to_vec(),
        None => return None,
    };
    // Inserted one by one: collecting into the map would sort the pairs first (more code, no gain).
    let mut shapes = BTreeMap::new();
    for pair in &pairs {
        let pair = pair.unchecked_ref::<Array>();
        shapes.insert(pair.get(0).as_string()?, shape(&pair.get(1))?);
    }
    Some(shapes)
}

/// The violation of `password` against rule `"A"`, `"B"` or `"C"`, or `null`.
#[wasm_bindgen(js_name = validatePassword, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_password(
    password: &str,
    #[wasm_bindgen(unchecked_param_type = "\"A\" | \"B\" | \"C\"")] rule: &str,
) -> Result<JsValue, JsValue> {
    let rule = PasswordRule::from_name(rule)
        .ok_or_else(|| throw(CoreError::InvalidArgument { name: "rule" }))?;
    to_js(&validate::validate_password(password, rule).err())
}

/// The errors of a password form: required fields, rule, confirmation, new ≠ old.
#[wasm_bindgen(js_name = validatePasswordChange, unchecked_return_type = "ValidationError[]")]
pub fn validate_password_change(
    #[wasm_bindgen(unchecked_param_type = "PasswordChangeInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_password_change(&from_js(
        "input", input,
    )?))
}

/// The violation of an e-mail address, or `null`.
#[wasm_bindgen(js_name = validateEmail, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_email(email: &str) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_email(email).err())
}

/// The phone number `text` as `+` and its digits, or its violation (`phone_format`,
/// `field_required`): `{phone, error}` with exactly one of them not `null`.
#[wasm_bindgen(js_name = normalizePhone, unchecked_return_type = "NormalizedPhone")]
pub fn normalize_phone(text: &str) -> Result<JsValue, JsValue> {
    let (phone, error) = match validate::normalize_phone(text) {
        Ok(phone) => (Some(phone), None),
        Err(violation) => (None, Some(violation)),
    };
    to_js(&NormalizedPhone { phone, error })
}

/// What [`normalize_phone`] returns.
#[derive(serde::Serialize)]
struct NormalizedPhone {
    phone: Option<String>,
    error: Option<validate::Violation>,
}

/// The violation of an anti-phishing code (4 to 20 ASCII letters or digits), or `null`.
#[wasm_bindgen(js_name = validateAntiCode, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_anti_code(text: &str) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_anti_code(text).err())
}

/// The violation of a 6-digit one-time code, or `null`.
#[wasm_bindgen(js_name = validateOtpCode, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_otp_code(text: &str) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_otp_code(text).err())
}

/// Whether `value` is `null`, `undefined`, `""`, `[]` or `{}`; numbers and booleans never are.
#[wasm_bindgen(js_name = isEmpty)]
pub fn is_empty(
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: JsValue,
) -> Result<bool, JsValue> {
    let shape = shape(&value).ok_or_else(|| throw(CoreError::InvalidArgument { name: "value" }))?;
    Ok(validate::is_empty(shape))
}

/// 'Please complete all required (*) fields' listing the empty ones of `fields`, or `null`.
#[wasm_bindgen(js_name = validateRequired, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_required(
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] form: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string[]")] fields: JsValue,
) -> Result<JsValue, JsValue> {
    let form =
        form_shapes(&form).ok_or_else(|| throw(CoreError::InvalidArgument { name: "form" }))?;
    let fields: Vec<String> = from_js("fields", fields)?;
    to_js(&validate::validate_required(&form, &fields).err())
}

/// The violation of a number input (digits, one point, no leading zero, at most `maxDecimals`
/// decimals), or `null`.
#[wasm_bindgen(js_name = validateNumberInput, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_number_input(
    value: &str,
    #[wasm_bindgen(js_name = maxDecimals)] max_decimals: Option<f64>,
) -> Result<JsValue, JsValue> {
    let max_decimals = max_decimals.map(max_decimals_from_number).transpose();
    to_js(&validate::validate_number_input(value, max_decimals.map_err(throw)?).err())
}

/// What a number field shows for the text typed into it.
#[wasm_bindgen(js_name = sanitizeNumberInput)]
pub fn sanitize_number_input(
    value: &str,
    #[wasm_bindgen(js_name = maxDecimals)] max_decimals: Option<f64>,
) -> Result<String, JsValue> {
    let max_decimals = max_decimals.map(max_decimals_from_number).transpose();
    Ok(validate::sanitize_number_input(
        value,
        max_decimals.map_err(throw)?,
    ))
}

/// The violation of a seconds contract quantity (a whole number above zero, within the optional
/// decimal-string bounds), or `null`.
#[wasm_bindgen(js_name = validateSecondsQuantity, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_seconds_quantity(
    value: &str,
    min: Option<String>,
    max: Option<String>,
) -> Result<JsValue, JsValue> {
    let min = min
        .as_deref()
        .map(parse_decimal)
        .transpose()
        .map_err(throw)?;
    let max = max
        .as_deref()
        .map(parse_decimal)
        .transpose()
        .map_err(throw)?;
    to_js(&validate::validate_seconds_quantity(value, min, max).err())
}

/// The violation of a withdrawal address on `network` (`BTC`, `ERC20`, `TRC20`, …), or `null`.
#[wasm_bindgen(js_name = validateAddress, unchecked_return_type = "CoreErrorPayload | null")]
pub fn validate_address(network: &str, address: &str) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_address(network, address).err())
}

/// The errors of a deposit form.
#[wasm_bindgen(js_name = validateDepositForm, unchecked_return_type = "ValidationError[]")]
pub fn validate_deposit_form(
    #[wasm_bindgen(unchecked_param_type = "DepositFormInput")] form: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_deposit_form(&from_js("form", form)?))
}

/// The errors of a withdrawal form; throws when `available` or `maxDecimals` is malformed.
#[wasm_bindgen(js_name = validateWithdrawalForm, unchecked_return_type = "ValidationError[]")]
pub fn validate_withdrawal_form(
    #[wasm_bindgen(unchecked_param_type = "WithdrawalFormInput")] form: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_withdrawal_form(&from_js("form", form)?).map_err(throw)?)
}

/// The errors of the identity verification form.
#[wasm_bindgen(js_name = validateIdentityForm, unchecked_return_type = "ValidationError[]")]
pub fn validate_identity_form(
    #[wasm_bindgen(unchecked_param_type = "IdentityFormInput")] form: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_identity_form(&from_js("form", form)?))
}

/// The errors of the bank card form.
#[wasm_bindgen(js_name = validateBankCardForm, unchecked_return_type = "ValidationError[]")]
pub fn validate_bank_card_form(
    #[wasm_bindgen(unchecked_param_type = "BankCardFormInput")] form: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_bank_card_form(&from_js("form", form)?))
}

/// The errors of a spot order form; throws when the pair's rules, the last price or a balance is
/// malformed.
#[wasm_bindgen(js_name = validateSpotOrder, unchecked_return_type = "ValidationError[]")]
pub fn validate_spot_order(
    #[wasm_bindgen(unchecked_param_type = "SpotOrderFormInput")] form: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&validate::validate_spot_order(&from_js("form", form)?).map_err(throw)?)
}
