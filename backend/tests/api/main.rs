//! HTTP and WebSocket tests against the real app: each test spawns the whole server on a random
//! port with a fresh database (SQLite in a temporary folder; PostgreSQL when `TEST_POSTGRES_URL`
//! names an administrative connection), and talks to it as the webapp does.

mod admin;
mod attempts;
mod channels;
mod common;
mod content;
mod conversion;
mod crash;
mod deposits;
mod depth;
mod earn;
mod errors;
mod favourites;
mod funds;
mod futures;
mod helpers;
mod kline;
mod kyc;
mod layering;
mod ledger;
mod ledger_model;
mod listing;
mod loans;
mod mail;
mod market;
mod notify;
mod numbers;
mod openapi;
mod paging;
mod prices;
mod push;
mod referral;
mod reports;
mod retention;
mod seconds;
mod security;
mod session_cache;
mod spot;
mod statements;
mod test_clock;
mod uploads;
mod user;
mod webapp;
mod withdrawals;
