//! sea-orm entities, one module per table. Decimal values are stored as strings (see the
//! migrations) and parsed with `wasm_core::money::parse_decimal` where they are used.

pub mod api_key;
pub mod bank_card;
pub mod coin;
pub mod conversion_usage;
pub mod deposit;
pub mod favourite;
pub mod fund_transfer;
pub mod futures_funding;
pub mod futures_funding_round;
pub mod futures_order;
pub mod futures_position;
pub mod futures_setting;
pub mod futures_stop;
pub mod idempotency_record;
pub mod journal_entry;
pub mod journal_posting;
pub mod kyc_submission;
pub mod ledger_account;
pub mod login_log;
pub mod market_candle;
pub mod market_tick;
pub mod notification;
pub mod outbox_message;
pub mod referral_agent;
pub mod referral_ancestor;
pub mod referral_job;
pub mod referral_rebate;
pub mod seconds_order;
pub mod spot_order;
pub mod spot_trade;
pub mod uploaded_file;
pub mod user;
pub mod user_session;
pub mod verification_code;
pub mod withdrawal;
