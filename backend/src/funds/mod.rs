//! Funds: the double-entry ledger every balance change goes through, its audit, and the funds
//! calls built on it: balances, transfers between a user's buckets and to other users, deposits,
//! withdrawals, conversion at the book's price, and the reports (bills, valued balances, income).

pub mod api;
pub mod audit;
pub mod bill_detail;
pub mod conversion;
pub mod conversion_api;
pub mod conversion_pricing;
pub mod deposits;
pub mod deposits_api;
pub mod fees;
pub mod ledger;
pub mod prices;
pub mod reports;
pub mod reports_api;
pub mod service;
pub mod withdrawals;
pub mod withdrawals_api;
