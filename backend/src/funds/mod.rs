//! Funds: the double-entry ledger every balance change goes through, and its audit. Deposits,
//! withdrawals, transfers and conversions (issue 6) post to it; nothing else changes a balance.

pub mod audit;
pub mod ledger;
