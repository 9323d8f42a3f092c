//! User tiers (issue 26, part 2): VIP or normal from the published thresholds (30-day trading
//! volume or assets in USDT) with a fee discount the spot and futures engines apply, and the account
//! tiers basic, starter, advanced and premium from the user's passed deposits valued in USD.
//! `table.rs` the published thresholds and the pure rules, `discounts.rs` the VIP set the engines
//! read at each fill, `service.rs` a user's figures and their recompute, `job.rs` the periodic
//! recompute (shared clock, `crate::lease::DbLease`), `api.rs` the calls. The VIP flag is stored in
//! `user.user_type` (earn's Member Zone reads it), the account tier in `user_tier`.

pub mod api;
pub mod discounts;
pub mod job;
pub mod service;
pub mod table;

pub use discounts::FeeDiscounts;
