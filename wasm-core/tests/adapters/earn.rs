//! Native adapter of the `earn` export (see `mod.rs`).

use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::convert::{MAX_EPOCH_MS, integer_from_number};
use wasm_core::earn::{self, Terms};

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &["earnSchedule"];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS.contains(&function).then(|| {
        args.arity(2);
        let terms: Terms = serde_json::from_value(args.value(0).clone())
            .map_err(|_| CoreError::InvalidArgument { name: "terms" })?;
        let at = args
            .optional_number(1)
            .map(|at| integer_from_number("at", at, 0, MAX_EPOCH_MS))
            .transpose()?;
        Ok(to_json(&earn::earn_schedule(&terms, at)?))
    })
}
