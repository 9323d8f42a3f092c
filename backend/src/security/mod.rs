//! Account security settings of the member area (`/api/{head}/coin/…`): codes to bind an e-mail
//! address or phone, login log and devices, step-up re-authentication, TOTP, fund password,
//! anti-phishing code and API keys, and the password calls of `/api/user/`.

pub mod api;
