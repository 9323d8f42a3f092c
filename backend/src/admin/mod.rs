//! The operator's calls (`/api/admin/…`): reviewing identity submissions, deposits and
//! withdrawals. Only accounts with the `operator` role (created by `backend admin create-operator`)
//! may call them.

pub mod api;
pub mod funds_api;
pub mod loans_api;
pub mod service;
