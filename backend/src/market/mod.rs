//! Market data: the hub that holds every pair's latest ticker and fans live messages out, the
//! built-in simulator that produces prices, the market WebSocket channel, and members' favourite
//! markets.

pub mod api;
pub mod book;
pub mod candles;
pub mod favourites;
pub mod frame;
pub mod hub;
pub mod kline_cache;
pub mod live_kline;
pub mod retention;
pub mod service;
pub mod simulator;
pub mod simulator_owner;
pub mod user_coin_api;
pub mod ws;

pub use hub::{Listing, MarketEvent, MarketHub, Ticker};
