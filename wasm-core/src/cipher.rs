//! AES-256-GCM sealing of small messages (the withdrawal request of spec section 7: "the body is the
//! JSON encrypted with a symmetric cipher"), with the base64 text helpers that carry keys, nonces and
//! sealed messages through JSON and JavaScript.
//!
//! A sealed message is `nonce (12 bytes) || ciphertext || tag (16 bytes)`: the receiver needs only
//! the key and the associated data (AAD) to open it. The nonce comes from the caller, so the core
//! stays pure and deterministic (the webapp seals with WebCrypto, `webapp/src/lib/seal.ts`, and both
//! run the vectors of `tests/cipher/seal-text.json`); a nonce must
//! never be used twice with one key. The cipher is RustCrypto's `aes-gcm` (constant-time AES and
//! GHASH in software on wasm32, AES-NI/CLMUL natively); base64 is RFC 4648's standard alphabet with
//! padding, implemented here and decoded strictly (no whitespace, no missing padding, no stray bits).

use aes_gcm::aead::{Aead, KeyInit, Payload};
use aes_gcm::{Aes256Gcm, Key};

use crate::error::CoreError;

/// Bytes of an AES-256 key.
pub const KEY_LEN: usize = 32;
/// Bytes of a GCM nonce.
pub const NONCE_LEN: usize = 12;
/// Bytes of the GCM authentication tag.
pub const TAG_LEN: usize = 16;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encrypts and authenticates `plaintext` and authenticates `aad` under `key` with `nonce`; returns
/// `nonce || ciphertext || tag` (the plaintext's length plus 28 bytes).
///
/// # Panics
/// Only for a plaintext above AES-GCM's limit of 2³⁶ − 32 bytes (64 GiB), which no caller can hold
/// in wasm32's 4 GiB and the backend never seals.
pub fn seal(key: &[u8; KEY_LEN], nonce: &[u8; NONCE_LEN], aad: &[u8], plaintext: &[u8]) -> Vec<u8> {
    let cipher = Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key));
    let sealed = cipher
        .encrypt(
            &(*nonce).into(),
            Payload {
                msg: plaintext,
                aad,
            },
        )
        .expect("AES-GCM seals every plaintext below 64 GiB");
    let mut out = Vec::with_capacity(NONCE_LEN + sealed.len());
    out.extend_from_slice(nonce);
    out.extend_from_slice(&sealed);
    out
}

/// Opens a message made by [`seal`] with the same `key` and `aad`: the plaintext, or
/// [`CoreError::InvalidArgument`] (`sealed`) when it is shorter than a nonce and a tag, or
/// [`CoreError::DecryptionFailed`] when the key, the AAD or any byte differs.
pub fn open(key: &[u8; KEY_LEN], aad: &[u8], sealed: &[u8]) -> Result<Vec<u8>, CoreError> {
    if sealed.len() < NONCE_LEN + TAG_LEN {
        return Err(CoreError::InvalidArgument { name: "sealed" });
    }
    let (nonce, body) = sealed.split_at(NONCE_LEN);
    let nonce: [u8; NONCE_LEN] = nonce
        .try_into()
        .map_err(|_| CoreError::InvalidArgument { name: "sealed" })?;
    Aes256Gcm::new(&Key::<Aes256Gcm>::from(*key))
        .decrypt(&nonce.into(), Payload { msg: body, aad })
        .map_err(|_| CoreError::DecryptionFailed)
}

/// [`seal`] over text: the key and nonce as base64 (32 and 12 bytes), the AAD and plaintext as
/// UTF-8; returns the sealed message as base64. A key or nonce that is not strict base64 of the
/// right length is [`CoreError::InvalidArgument`] naming `keyBase64` or `nonceBase64`.
pub fn seal_text(
    key_base64: &str,
    nonce_base64: &str,
    aad: &str,
    plaintext: &str,
) -> Result<String, CoreError> {
    let key: [u8; KEY_LEN] = decode_fixed(key_base64, "keyBase64")?;
    let nonce: [u8; NONCE_LEN] = decode_fixed(nonce_base64, "nonceBase64")?;
    Ok(encode_base64(&seal(
        &key,
        &nonce,
        aad.as_bytes(),
        plaintext.as_bytes(),
    )))
}

/// [`open`] over text: `sealed_base64` is what [`seal_text`] returned. Fails like [`open`], and with
/// [`CoreError::InvalidArgument`] (`payload`) when it is not strict base64 or the plaintext is not
/// UTF-8.
pub fn open_text(key: &[u8; KEY_LEN], aad: &str, sealed_base64: &str) -> Result<String, CoreError> {
    let sealed = decode_base64(sealed_base64, "payload")?;
    let plaintext = open(key, aad.as_bytes(), &sealed)?;
    String::from_utf8(plaintext).map_err(|_| CoreError::InvalidArgument { name: "payload" })
}

/// `bytes` as standard base64 with padding (RFC 4648 section 4).
pub fn encode_base64(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> shift & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The bytes of standard padded base64 `text`; anything else — another alphabet, whitespace, a
/// missing or misplaced `=`, bits left over in the last symbol — is
/// [`CoreError::InvalidArgument`] naming `name`.
pub fn decode_base64(text: &str, name: &'static str) -> Result<Vec<u8>, CoreError> {
    let invalid = || CoreError::InvalidArgument { name };
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return Err(invalid());
    }
    let mut out = Vec::with_capacity(bytes.len() / 4 * 3);
    let quads = bytes.len() / 4;
    for (index, quad) in bytes.chunks(4).enumerate() {
        let last = index + 1 == quads;
        let padding = quad.iter().rev().take_while(|&&b| b == b'=').count();
        if padding > 2 || (padding > 0 && !last) {
            return Err(invalid());
        }
        let mut n = 0u32;
        for &symbol in &quad[..4 - padding] {
            n = n << 6 | u32::from(sextet(symbol).ok_or_else(invalid)?);
        }
        n <<= 6 * padding as u32;
        let decoded = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        let keep = 3 - padding;
        // Canonical form only: the bits a padded quad does not carry must be zero.
        if decoded[keep..].iter().any(|&b| b != 0) {
            return Err(invalid());
        }
        out.extend_from_slice(&decoded[..keep]);
    }
    Ok(out)
}

fn sextet(symbol: u8) -> Option<u8> {
    match symbol {
        b'A'..=b'Z' => Some(symbol - b'A'),
        b'a'..=b'z' => Some(symbol - b'a' + 26),
        b'0'..=b'9' => Some(symbol - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Strict base64 of exactly `N` bytes.
fn decode_fixed<const N: usize>(text: &str, name: &'static str) -> Result<[u8; N], CoreError> {
    decode_base64(text, name)?
        .try_into()
        .map_err(|_| CoreError::InvalidArgument { name })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str) -> Vec<u8> {
        (0..text.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
            .collect()
    }

    /// The AES-256 cases (13 to 16) of the GCM specification's test vectors (McGrew and Viega,
    /// "The Galois/Counter Mode of Operation", appendix B), also in NIST's GCM validation suite.
    #[test]
    fn gcm_specification_vectors() {
        let k15 = "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308";
        let p15 = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a72\
                   1c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255";
        let c15 = "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa\
                   8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662898015ad";
        let cases: [(&str, &str, &str, &str, &str, &str); 4] = [
            // 13: empty plaintext, zero key and nonce.
            (
                &"0".repeat(64),
                "000000000000000000000000",
                "",
                "",
                "",
                "530f8afbc74536b9a963b4f1c4cb738b",
            ),
            // 14: one zero block.
            (
                &"0".repeat(64),
                "000000000000000000000000",
                "",
                "00000000000000000000000000000000",
                "cea7403d4d606b6e074ec5d3baf39d18",
                "d0d1c8a799996bf0265b98b5d48ab919",
            ),
            // 15: four blocks, no AAD.
            (
                k15,
                "cafebabefacedbaddecaf888",
                "",
                p15,
                c15,
                "b094dac5d93471bdec1a502270e3cc6c",
            ),
            // 16: 60 bytes with 20 bytes of AAD.
            (
                k15,
                "cafebabefacedbaddecaf888",
                "feedfacedeadbeeffeedfacedeadbeefabaddad2",
                &p15[..120],
                &c15[..120],
                "76fc6ece0f4e1768cddf8853bb2d551b",
            ),
        ];
        for (number, (key, nonce, aad, plaintext, ciphertext, tag)) in (13..).zip(cases) {
            let key: [u8; KEY_LEN] = hex(key).try_into().unwrap();
            let nonce: [u8; NONCE_LEN] = hex(nonce).try_into().unwrap();
            let sealed = seal(&key, &nonce, &hex(aad), &hex(plaintext));
            let expected = [nonce.as_slice(), &hex(ciphertext), &hex(tag)].concat();
            assert_eq!(sealed, expected, "test case {number}");
            assert_eq!(
                open(&key, &hex(aad), &sealed).unwrap(),
                hex(plaintext),
                "test case {number}"
            );
        }
    }

    #[test]
    fn any_change_is_refused() {
        let key = [7u8; KEY_LEN];
        let nonce = [9u8; NONCE_LEN];
        let sealed = seal(&key, &nonce, b"assets/withdrawal", b"{\"amount\":\"1\"}");
        assert_eq!(sealed.len(), NONCE_LEN + 14 + TAG_LEN);
        for i in 0..sealed.len() {
            let mut tampered = sealed.clone();
            tampered[i] ^= 1;
            assert_eq!(
                open(&key, b"assets/withdrawal", &tampered),
                Err(CoreError::DecryptionFailed),
                "byte {i}"
            );
        }
        assert_eq!(
            open(&key, b"assets/other", &sealed),
            Err(CoreError::DecryptionFailed)
        );
        assert_eq!(
            open(&[8u8; KEY_LEN], b"assets/withdrawal", &sealed),
            Err(CoreError::DecryptionFailed)
        );
        assert_eq!(
            open(&key, b"", &sealed[..NONCE_LEN + TAG_LEN - 1]),
            Err(CoreError::InvalidArgument { name: "sealed" })
        );
    }

    #[test]
    fn text_round_trip() {
        let key = encode_base64(&[1u8; KEY_LEN]);
        let nonce = encode_base64(&[2u8; NONCE_LEN]);
        let sealed = seal_text(&key, &nonce, "aad", "héllo").unwrap();
        assert!(sealed.starts_with(&nonce[..16]));
        assert_eq!(open_text(&[1u8; KEY_LEN], "aad", &sealed).unwrap(), "héllo");
        assert_eq!(
            seal_text(&encode_base64(&[1u8; 31]), &nonce, "", ""),
            Err(CoreError::InvalidArgument { name: "keyBase64" })
        );
        assert_eq!(
            seal_text(&key, "AAAA", "", ""),
            Err(CoreError::InvalidArgument {
                name: "nonceBase64"
            })
        );
        assert_eq!(
            open_text(&[1u8; KEY_LEN], "aad", "not base64!"),
            Err(CoreError::InvalidArgument { name: "payload" })
        );
    }

    proptest::proptest! {
        #[test]
        fn base64_round_trips(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
            proptest::prop_assert_eq!(decode_base64(&encode_base64(&bytes), "x").unwrap(), bytes);
        }

        #[test]
        fn decoding_never_panics(text in ".{0,64}") {
            let _ = decode_base64(&text, "x");
        }

        #[test]
        fn sealed_text_opens(
            key in proptest::array::uniform32(proptest::num::u8::ANY),
            nonce in proptest::array::uniform12(proptest::num::u8::ANY),
            aad in ".{0,20}",
            text in ".{0,100}",
        ) {
            let sealed = seal_text(&encode_base64(&key), &encode_base64(&nonce), &aad, &text).unwrap();
            proptest::prop_assert_eq!(open_text(&key, &aad, &sealed).unwrap(), text);
        }
    }

    /// RFC 4648 section 10.
    #[test]
    fn base64_rfc4648_vectors() {
        for (plain, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode_base64(plain.as_bytes()), encoded);
            assert_eq!(decode_base64(encoded, "x").unwrap(), plain.as_bytes());
        }
        assert_eq!(encode_base64(&[0xfb, 0xff]), "+/8=");
        assert_eq!(decode_base64("+/8=", "x").unwrap(), [0xfb, 0xff]);
    }

    #[test]
    fn base64_is_decoded_strictly() {
        for bad in [
            "Zg", "Zg=", "Zg===", "Z===", "Zh==", "Zm9=", "Zg==Zg==", "Zm 9v", "Zm9v\n", "Zm-_",
            "====", "Zm9v=",
        ] {
            assert_eq!(
                decode_base64(bad, "x"),
                Err(CoreError::InvalidArgument { name: "x" }),
                "{bad:?}"
            );
        }
    }
}
