//! The JavaScript exports (wasm only). Each export converts its arguments (decimal strings through
//! [`parse_decimal`], JavaScript numbers through [`crate::convert`], objects through
//! serde-wasm-bindgen), calls one core function, and on failure throws the error's
//! `{code, key, params}` payload as a plain object. One file per core module. No rule lives here:
//! the native vector tests (`tests/vectors.rs`) and the wasm ones (`tests/wasm-vectors.test.mjs`)
//! check that both agree.

use serde::Serialize;
use serde_wasm_bindgen::Serializer;
use wasm_bindgen::prelude::*;

use crate::error::CoreError;

mod cipher;
mod format;
mod funds;
mod kline;
mod margin;
mod validate;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** The payload every export throws on bad input; `key` is an i18n key, `params` its values. */
export interface CoreErrorPayload { code: string; key: string; params: Record<string, string>; }
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

/// Serializes to plain JavaScript values: `None` as `null`, maps as plain objects.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    Ok(value.serialize(&Serializer::json_compatible())?)
}

/// The value to throw for `error`: its `{code, key, params}` payload.
pub(crate) fn throw(error: CoreError) -> JsValue {
    match to_js(&error) {
        Ok(payload) | Err(payload) => payload,
    }
}
