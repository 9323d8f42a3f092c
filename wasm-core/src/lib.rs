//! wasm-core: the exchange's pure compute core, linked natively by the backend and compiled to
//! WebAssembly for the webapp, so both show and compute exactly the same thing.
//!
//! - [`money`]: money and prices are [`rust_decimal::Decimal`]s inside and plain decimal strings at
//!   every boundary; never `f64`.
//! - [`format`](mod@format): the product's display rules (amounts, prices, percents, dates, time zones).
//! - [`convert`]: checked conversions of host numbers (JavaScript `number`s) into integer arguments.
//! - [`error`]: errors as data, serialized as `{code, key, params}` for the webapp to translate.
//!
//! The core has no wasm-bindgen, js-sys or web-sys. The JavaScript exports live in `bindings/`,
//! compiled for wasm targets only; each converts its arguments, calls one core function and throws a
//! [`CoreError`]'s payload on failure.

pub mod convert;
pub mod error;
pub mod format;
pub mod money;

#[cfg(target_family = "wasm")]
mod bindings;

pub use error::CoreError;
