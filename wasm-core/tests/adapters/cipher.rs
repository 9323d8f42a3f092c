//! Native adapter of the `cipher` export (see `mod.rs`).

use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::cipher;

use super::Args;

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &["sealText"];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS.contains(&function).then(|| {
        args.arity(4);
        cipher::seal_text(
            args.string(0),
            args.string(1),
            args.string(2),
            args.string(3),
        )
        .map(Value::from)
    })
}
