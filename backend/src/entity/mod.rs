//! sea-orm entities, one module per table. Decimal values are stored as strings (see the
//! migrations) and parsed with `wasm_core::money::parse_decimal` where they are used.

pub mod coin;
pub mod market_candle;
pub mod market_tick;
