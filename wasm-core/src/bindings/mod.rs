//! The JavaScript exports (wasm only). Each export converts its arguments (decimal strings through
//! [`parse_decimal`](crate::money::parse_decimal), JavaScript numbers through [`crate::convert`],
//! objects as `JSON.stringify` text through [`crate::json`]), calls one core function, and on failure
//! throws the error's `{code, key, params}` payload as a plain object. Structured results cross as one
//! JSON text that the engine's `JSON.parse` turns into plain objects. One file per core module. No
//! rule lives here: the native vector tests (`tests/vectors.rs`) and the wasm ones
//! (`tests/wasm-vectors.test.mjs`) check that both agree.
//!
//! Both directions go through JSON text rather than serde-wasm-bindgen: one engine call per argument
//! or result instead of one per field and string, and far less code in the wasm file (no per-type
//! walking of JavaScript objects, no serde error messages and the `f64` formatting they link).
//! JSON text reads every value JSON can hold exactly as before; what `JSON.stringify` cannot write
//! changes meaning inside an object argument: a non-finite number reads as `null` (an optional number
//! as absent), a `BigInt` or a cycle throws `invalid_argument`, and `toJSON` is honoured.
//!
//! Which exports a build carries is chosen by cargo features: `exports-main` (every module but earn
//! and loan) and `exports-earn-loan` (those two), so the webapp can fetch the earn and loan exports
//! as a second module on the screens that use them (scripts/build-wasm.sh builds one module per
//! feature). The code an export does not reach is left out of the module by the linker.

use serde::Serialize;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use crate::error::CoreError;
use crate::json;

#[cfg(feature = "exports-earn-loan")]
mod earn;
#[cfg(feature = "exports-main")]
mod format;
#[cfg(feature = "exports-main")]
mod funds;
#[cfg(feature = "exports-main")]
mod kline;
#[cfg(feature = "exports-earn-loan")]
mod loan;
#[cfg(feature = "exports-main")]
mod margin;
#[cfg(feature = "exports-main")]
mod validate;

#[wasm_bindgen(typescript_custom_section)]
const CORE_ERROR_TS: &str = r#"
/** The payload every export throws on bad input; `key` is an i18n key, `params` its values. */
export interface CoreErrorPayload { code: string; key: string; params: Record<string, string>; }
"#;

#[cfg(feature = "exports-main")]
#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One entry of the time zone table. */
export interface TimeZone { zoneId: string; offSetValue: string; offsetMinutes: number; }
/** One ticker row to format; decimals are strings. */
export interface TickerRowInput { symbol: string; price: string; open: string; pricePrecision?: number | null; }
/** One formatted ticker row. */
export interface TickerRowView {
  symbol: string; price: string; changePercent: string | null; changeText: string;
  direction: "up" | "down" | "flat";
}
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = JSON, js_name = parse)]
    fn json_parse(text: &str) -> JsValue;
    #[wasm_bindgen(js_namespace = JSON, js_name = stringify, catch)]
    fn json_stringify(value: &JsValue) -> Result<Option<String>, JsValue>;
    #[wasm_bindgen(js_name = parseFloat)]
    fn parse_float(text: &str) -> f64;
}

/// Plain JavaScript values of `value` (`None` as `null`, maps as plain objects), built by the
/// engine's `JSON.parse` from one JSON text.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    match serde_json::to_string(value) {
        // `null` (a rule without a violation) is common enough to skip the engine's parser.
        Ok(text) if text == "null" => Ok(JsValue::NULL),
        Ok(text) => Ok(json_parse(&text)),
        // Only a map with keys that are not strings fails, and no result has one.
        Err(_) => Err(JsValue::from_str("result not serializable")),
    }
}

/// Reads the argument `name` into `T` through its `JSON.stringify` text (`undefined` reads as
/// `null`), or throws [`CoreError::InvalidArgument`] naming it.
pub(crate) fn from_js<T: DeserializeOwned>(
    name: &'static str,
    value: JsValue,
) -> Result<T, JsValue> {
    let invalid = || throw(CoreError::InvalidArgument { name });
    let text = json_stringify(&value).map_err(|_| invalid())?;
    json::from_str(text.as_deref().unwrap_or("null"), parse_float).map_err(|_| invalid())
}

/// The value to throw for `error`: its `{code, key, params}` payload.
pub(crate) fn throw(error: CoreError) -> JsValue {
    match to_js(&error) {
        Ok(payload) | Err(payload) => payload,
    }
}
