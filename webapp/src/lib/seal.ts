/**
 * AES-256-GCM sealing of the withdrawal request with the browser's WebCrypto (moved out of the
 * wasm module, where the cipher cost ~9 KB; docs/benchmarks.md). Byte for byte what wasm-core's
 * `cipher::seal_text` gives, which the server opens with `cipher::open_text`: both run the same
 * vectors (`wasm-core/tests/cipher/seal-text.json`, natively and in `seal.test.ts`).
 *
 * @module
 */

import type { CoreError } from './wasm';

// Strict standard base64 with padding; canonical form (no stray bits) is checked by re-encoding.
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** The bytes of strict base64 `text` of exactly `length` bytes, or throws `invalid_argument`. */
function decodeFixed(text: string, length: number, name: string): Uint8Array<ArrayBuffer> {
  const invalid: CoreError = { code: 'invalid_argument', key: 'errors.invalidArgument', params: { name } };
  if (!BASE64.test(text)) throw invalid;
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  if (bytes.length !== length || toBase64(bytes) !== text) throw invalid;
  return bytes;
}

/**
 * Seals `plaintext` (UTF-8) with AES-256-GCM under the base64 key (32 bytes) and the caller's
 * base64 nonce (12 bytes, from `crypto.getRandomValues`), authenticating `aad`; resolves to base64
 * of `nonce || ciphertext || tag`. Rejects with `invalid_argument` naming `keyBase64` or
 * `nonceBase64` for one that is not strict base64 of its size, and with an `Error` outside a secure
 * context (a page served over plain HTTP from another host than localhost has no `crypto.subtle`).
 */
export async function sealText(keyBase64: string, nonceBase64: string, aad: string, plaintext: string): Promise<string> {
  const key = decodeFixed(keyBase64, 32, 'keyBase64');
  const nonce = decodeFixed(nonceBase64, 12, 'nonceBase64');
  // WebCrypto's subtle API exists only in secure contexts (HTTPS, or http://localhost).
  if (globalThis.crypto?.subtle === undefined) throw new Error('sealing needs a secure context (HTTPS)');
  const encoder = new TextEncoder();
  const cryptoKey = await crypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt']);
  const sealed = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv: nonce, additionalData: encoder.encode(aad), tagLength: 128 },
    cryptoKey,
    encoder.encode(plaintext),
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(nonce);
  out.set(new Uint8Array(sealed), 12);
  return toBase64(out);
}
