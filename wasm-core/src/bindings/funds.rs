//! The JavaScript export of [`crate::funds`]: `withdrawalQuote`, the figures the withdrawal form
//! shows. Decimals cross as strings; a malformed one, or a violation (amount not above zero or not
//! above the fee), throws its `{code, key, params}` payload.

use wasm_bindgen::prelude::*;

use super::{throw, to_js};
use crate::funds;
use crate::money::parse_decimal;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A withdrawal's figures as decimal strings: amount leaves the balance, received arrives. */
export interface WithdrawalQuote { amount: string; fee: string; received: string; }
"#;

/// `{amount, fee, received}` of withdrawing `amount` with the fixed `fee` (`received = amount − fee`).
#[wasm_bindgen(js_name = withdrawalQuote, unchecked_return_type = "WithdrawalQuote")]
pub fn withdrawal_quote(amount: &str, fee: &str) -> Result<JsValue, JsValue> {
    let amount = parse_decimal(amount).map_err(throw)?;
    let fee = parse_decimal(fee).map_err(throw)?;
    to_js(&funds::withdrawal_quote(amount, fee).map_err(throw)?)
}
