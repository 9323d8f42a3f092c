//! Merchants (issue 26, part 2): a user applies with a form (business name, contact, what it sells
//! or does, countries), one open application per user; an operator approves it (`is_merchant` = 2,
//! with a generation-1 rebate rate of its own that the referral batch applies) or rejects it with a
//! reason the user sees, by a conditional update so of two operators deciding at once exactly one
//! wins. `service.rs` the rules, `api.rs` the member calls (apply, the application, the merchant
//! tool: profile, customers and their volumes), `admin_api.rs` the operator's calls. Depends on
//! `user`, `tiers` (the customers' stored volumes) and `referral` (the rebates earned).

pub mod admin_api;
pub mod api;
pub mod service;
