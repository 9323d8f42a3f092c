//! Account security settings of the member area (`/api/{head}/coin/…`): codes to bind an e-mail
//! address or phone, login log and devices, step-up re-authentication, TOTP, fund password,
//! anti-phishing code and API keys, and the password calls of `/api/user/`.
//!
//! `api` is HTTP only; `models` holds its request and answer shapes; the rules are in `service`
//! (contacts, login log, devices, authenticator, anti-phishing code), `passwords`, `api_keys` and
//! `reauth` (the five-minute confirmation sensitive changes need) and `second_factor` (the
//! authenticator or e-mailed code that confirmations and withdrawals need beside a password).

pub mod api;
pub mod api_keys;
pub mod models;
pub mod passwords;
pub mod reauth;
pub mod second_factor;
pub mod service;
