//! Native adapter of the `funds` export (see `mod.rs`).

use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::funds;
use wasm_core::money::parse_decimal;

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &["withdrawalQuote"];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS.contains(&function).then(|| {
        args.arity(2);
        let amount = parse_decimal(args.string(0))?;
        let fee = parse_decimal(args.string(1))?;
        Ok(to_json(&funds::withdrawal_quote(amount, fee)?))
    })
}
