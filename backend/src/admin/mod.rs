//! The operator's calls (`/api/admin/…`): reviewing identity submissions, deposits and
//! withdrawals, editing the content store (`content_api.rs`), and freezing accounts (`accounts.rs`). Only accounts with the
//! `operator` role (created by `backend admin create-operator`) may call them.

pub mod accounts;
pub mod accounts_api;
pub mod api;
pub mod content_api;
pub mod earn_api;
pub mod funds_api;
pub mod loans_api;
pub mod service;
pub mod support_api;
