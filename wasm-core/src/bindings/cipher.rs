//! The JavaScript export of [`crate::cipher`]: `sealText`, which the webapp uses to seal the
//! withdrawal request with the key of `getWithdrawalKey` and a nonce from `crypto.getRandomValues`.
//! A key or nonce that is not base64 of 32 or 12 bytes throws `invalid_argument` naming it.

use wasm_bindgen::prelude::*;

use super::throw;
use crate::cipher;

/// Seals `plaintext` (UTF-8) with AES-256-GCM under the base64 key (32 bytes) and nonce (12 bytes),
/// authenticating `aad` too; returns base64 of `nonce || ciphertext || tag`.
#[wasm_bindgen(js_name = sealText)]
pub fn seal_text(
    #[wasm_bindgen(js_name = keyBase64)] key_base64: &str,
    #[wasm_bindgen(js_name = nonceBase64)] nonce_base64: &str,
    aad: &str,
    plaintext: &str,
) -> Result<String, JsValue> {
    cipher::seal_text(key_base64, nonce_base64, aad, plaintext).map_err(throw)
}
