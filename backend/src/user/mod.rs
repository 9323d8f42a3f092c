//! Accounts and sessions: registration with a code sent by e-mail or SMS, login (one session per
//! device, 256-bit tokens stored as SHA-256 hashes), the `satoken` security scheme every member call
//! uses, verification codes, the mailer with its development outbox, rate limits, and the roles an
//! account may have (`roles`).

pub mod api;
pub mod auth;
pub mod codes;
pub mod events;
pub mod invitation;
pub mod mailer;
pub mod password;
pub mod rate_limit;
pub mod roles;
pub mod service;
pub mod session;
pub mod session_cache;
pub mod totp;

pub use auth::{CurrentUser, Satoken, SatokenCached};

/// Lower-case hex SHA-256 of `parts` joined by NUL bytes.
pub fn sha256_hex(parts: &[&[u8]]) -> String {
    use sha2::{Digest, Sha256};
    let mut hasher = Sha256::new();
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            hasher.update([0u8]);
        }
        hasher.update(part);
    }
    data_encoding::HEXLOWER.encode(&hasher.finalize())
}

/// `n` random bytes from the operating system's generator, URL-safe base64 without padding.
pub fn random_token(n: usize) -> String {
    let mut bytes = vec![0u8; n];
    rand::fill(&mut bytes[..]);
    data_encoding::BASE64URL_NOPAD.encode(&bytes)
}
