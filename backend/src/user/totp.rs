//! Time-based one-time passwords (RFC 6238 over RFC 4226 HOTP, HMAC-SHA1, 30 s steps, 6 digits),
//! the `otpauth://` URI authenticator apps scan, and its QR code as SVG.

use hmac::{Hmac, KeyInit, Mac};
use sha1::Sha1;

/// Seconds per step.
pub const STEP_SECS: i64 = 30;
/// Steps of clock drift accepted either side of now.
pub const DRIFT_STEPS: i64 = 1;

/// A new random secret: 160 bits, base32 without padding (what authenticator apps expect).
pub fn generate_secret() -> String {
    let mut bytes = [0u8; 20];
    rand::fill(&mut bytes[..]);
    data_encoding::BASE32_NOPAD.encode(&bytes)
}

/// The 6-digit code of `secret` (base32) at time step `step`; `None` for a malformed secret.
pub fn code_at_step(secret: &str, step: i64) -> Option<String> {
    let key = data_encoding::BASE32_NOPAD
        .decode(secret.trim().to_ascii_uppercase().as_bytes())
        .ok()?;
    Some(hotp(&key, step as u64))
}

/// RFC 4226: the 6-digit HOTP of `key` at `counter`.
fn hotp(key: &[u8], counter: u64) -> String {
    let mut mac =
        <Hmac<Sha1> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(&counter.to_be_bytes());
    let digest = mac.finalize().into_bytes();
    let offset = usize::from(digest[19] & 0x0f);
    let binary = (u32::from(digest[offset]) & 0x7f) << 24
        | u32::from(digest[offset + 1]) << 16
        | u32::from(digest[offset + 2]) << 8
        | u32::from(digest[offset + 3]);
    format!("{:06}", binary % 1_000_000)
}

/// The time step of `unix_secs`.
pub fn step_of(unix_secs: i64) -> i64 {
    unix_secs.div_euclid(STEP_SECS)
}

/// The step whose code `code` is, within the drift window around `unix_secs` and later than
/// `last_step` (a code is accepted once); `None` when it matches none.
pub fn matching_step(
    secret: &str,
    code: &str,
    unix_secs: i64,
    last_step: Option<i64>,
) -> Option<i64> {
    if wasm_core::validate::validate_otp_code(code).is_err() {
        return None;
    }
    let code = code.trim();
    let now = step_of(unix_secs);
    (now - DRIFT_STEPS..=now + DRIFT_STEPS)
        .filter(|step| last_step.is_none_or(|last| *step > last))
        .find(|step| {
            code_at_step(secret, *step).is_some_and(|expected| constant_time_eq(&expected, code))
        })
}

fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The `otpauth://totp/…` URI of `secret` for `account` at `issuer`.
pub fn otpauth_uri(issuer: &str, account: &str, secret: &str) -> String {
    let enc = |text: &str| -> String {
        text.bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                    (b as char).to_string()
                }
                _ => format!("%{b:02X}"),
            })
            .collect()
    };
    format!(
        "otpauth://totp/{}:{}?secret={secret}&issuer={}&algorithm=SHA1&digits=6&period={STEP_SECS}",
        enc(issuer),
        enc(account),
        enc(issuer)
    )
}

/// The QR code of `text` as an SVG document.
pub fn qr_svg(text: &str) -> Option<String> {
    let code = qrcode::QrCode::new(text.as_bytes()).ok()?;
    Some(
        code.render::<qrcode::render::svg::Color<'_>>()
            .min_dimensions(200, 200)
            .quiet_zone(true)
            .build(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6238 appendix B, SHA-1 rows (8 digits there; the last 6 here).
    #[test]
    fn rfc_6238_test_vectors() {
        let secret = data_encoding::BASE32_NOPAD.encode(b"12345678901234567890");
        for (time, expected) in [
            (59, "287082"),
            (1_111_111_109, "081804"),
            (1_111_111_111, "050471"),
            (1_234_567_890, "005924"),
            (2_000_000_000, "279037"),
            (20_000_000_000, "353130"),
        ] {
            assert_eq!(
                code_at_step(&secret, step_of(time)).unwrap(),
                expected,
                "t={time}"
            );
        }
    }

    #[test]
    fn a_code_matches_within_the_drift_window_and_only_once() {
        let secret = generate_secret();
        let now = 1_700_000_000;
        let code = code_at_step(&secret, step_of(now) - 1).unwrap();
        let step = matching_step(&secret, &code, now, None).unwrap();
        assert_eq!(step, step_of(now) - 1);
        assert_eq!(matching_step(&secret, &code, now, Some(step)), None);
        let old = code_at_step(&secret, step_of(now) - 3).unwrap();
        assert_eq!(matching_step(&secret, &old, now, None), None);
        assert_eq!(matching_step(&secret, "12345", now, None), None);
    }

    #[test]
    fn the_uri_and_qr_code_carry_the_secret() {
        let uri = otpauth_uri("Kestrel Exchange", "a@b.co", "ABC");
        assert_eq!(
            uri,
            "otpauth://totp/Kestrel%20Exchange:a%40b.co?secret=ABC&issuer=Kestrel%20Exchange&algorithm=SHA1&digits=6&period=30"
        );
        assert!(qr_svg(&uri).unwrap().starts_with("<?xml"));
    }
}
