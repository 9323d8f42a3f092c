//! wasm-core: the exchange's pure compute core, linked natively by the backend and compiled to
//! WebAssembly for the webapp, so both show and compute exactly the same thing.
//!
//! - [`money`]: money and prices are [`rust_decimal::Decimal`]s inside and plain decimal strings at
//!   every boundary; never `f64`.
//! - [`format`](mod@format): the product's display rules (amounts, prices, quantities, percents,
//!   dates, time zones) and whole tables in one call (tickers, the order book, trades).
//! - [`kline`]: trades into candles at every chart interval, the live candle, roll-ups, gap filling
//!   and the rolling 24h statistics.
//! - [`margin`]: futures margin (tiers, liquidation price, position figures, max open size, TP/SL
//!   PnL, margin adjustment) and the spot order and seconds contract previews.
//! - [`validate`]: the input rules (passwords, e-mail, emptiness, required fields, number inputs,
//!   seconds quantities, withdrawal addresses with their checksums, deposit, withdrawal, identity and
//!   bank card forms), whose failures are data: `{code, key, params}` per broken rule.
//! - [`cipher`]: AES-256-GCM sealing of the withdrawal request and strict base64 (the backend
//!   opens; the browser seals with WebCrypto, byte for byte the same, so it is no wasm export).
//! - [`funds`](mod@funds): a withdrawal's amount, fee and what arrives.
//! - [`loan`]: a crypto loan's repayment schedule, early repayment and overdue penalty.
//! - [`earn`]: an earn position's whole schedule (value date, daily rewards rounded down with the
//!   residue carried, total, delivery) and what early redemption on any date returns.
//! - [`convert`]: checked conversions of host numbers (JavaScript `number`s) into integer arguments.
//! - [`error`]: errors as data, serialized as `{code, key, params}` for the webapp to translate.
//!
//! The core has no wasm-bindgen, js-sys or web-sys. The JavaScript exports live in `bindings/`,
//! compiled for wasm targets only; each converts its arguments, calls one core function and throws a
//! [`CoreError`]'s payload on failure.

// The shipped wasm build compiles this crate for size and asks for speed back on the benchmarked hot
// paths (order book, kline aggregation, liquidation price) with `optimize(speed)`, a nightly
// attribute that scripts/build-wasm.sh enables with `--cfg optimize_hot` where its toolchain allows
// it. Other builds (native, tests) ignore it.
#![cfg_attr(optimize_hot, feature(optimize_attribute))]

pub mod cipher;
mod civil;
pub mod convert;
pub mod earn;
pub mod error;
pub mod format;
pub mod funds;
#[cfg(any(target_family = "wasm", test))]
mod json;
pub mod kline;
pub mod loan;
pub mod margin;
pub mod money;
pub mod validate;

#[cfg(target_family = "wasm")]
mod bindings;

pub use error::CoreError;
