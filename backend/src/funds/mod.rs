//! Funds: the double-entry ledger every balance change goes through, its audit, and the funds
//! calls built on it (balances, transfers between a user's buckets and to other users). Deposits,
//! withdrawals and conversion come next (issue 6).

pub mod api;
pub mod audit;
pub mod ledger;
pub mod service;
