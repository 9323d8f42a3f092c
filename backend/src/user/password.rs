//! Password hashing with argon2id and the OWASP parameters (19 MiB memory, 2 passes, 1 lane),
//! stored as PHC strings so the parameters can be raised later without breaking old hashes.

use argon2::{
    Algorithm, Argon2, Params, Version,
    password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash},
};

/// The hasher with OWASP's argon2id parameters.
fn hasher() -> Argon2<'static> {
    // 19456 KiB, t = 2, p = 1: valid constants, so `new` cannot fail.
    let params = Params::new(19_456, 2, 1, None).expect("valid argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string of `password` with a fresh random salt.
pub fn hash(password: &str) -> Result<String, argon2::password_hash::Error> {
    Ok(hasher().hash_password(password.as_bytes())?.to_string())
}

/// Whether `password` matches the PHC string `stored`; a malformed hash never matches.
pub fn verify(password: &str, stored: &str) -> bool {
    PasswordHash::new(stored)
        .map(|parsed| {
            hasher()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}

/// How many password hashes (argon2id, 19 MiB and tens of milliseconds each) run at once; more
/// wait their turn, so a burst of logins costs time, not the server's memory.
pub const CONCURRENT_HASHES: usize = 4;

static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(CONCURRENT_HASHES);

/// Runs [`verify`] off the async runtime (argon2 takes tens of milliseconds by design), at most
/// [`CONCURRENT_HASHES`] at once.
pub async fn verify_blocking(password: String, stored: String) -> bool {
    let Ok(_turn) = HASHING.acquire().await else {
        return false;
    };
    tokio::task::spawn_blocking(move || verify(&password, &stored))
        .await
        .unwrap_or(false)
}

/// Runs [`hash`] off the async runtime, at most [`CONCURRENT_HASHES`] at once.
pub async fn hash_blocking(password: String) -> Result<String, crate::refusal::Refusal> {
    let _turn = HASHING
        .acquire()
        .await
        .map_err(crate::refusal::Refusal::internal)?;
    tokio::task::spawn_blocking(move || hash(&password))
        .await
        .map_err(crate::refusal::Refusal::internal)?
        .map_err(crate::refusal::Refusal::internal)
}

/// A fixed hash to verify against when the account does not exist, so that a login for an unknown
/// account takes as long as one with a wrong password.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash("not a password of anyone").unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_hash_verifies_its_password_only() {
        let stored = hash("Secret123").unwrap();
        assert!(
            stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{stored}"
        );
        assert!(verify("Secret123", &stored));
        assert!(!verify("secret123", &stored));
        assert!(!verify("Secret123", "not a hash"));
    }

    #[test]
    fn every_hash_has_its_own_salt() {
        assert_ne!(hash("Secret123").unwrap(), hash("Secret123").unwrap());
    }
}
