//! The cryptography and text of Sign-In with Ethereum, without any state: Ethereum addresses and
//! their EIP-55 checksum, the EIP-4361 message, the EIP-191 `personal_sign` hash, and the address
//! a 65-byte `personal_sign` signature recovers to (secp256k1 ECDSA public-key recovery, `k256`;
//! Keccak-256, `sha3`).

use k256::ecdsa::{RecoveryId, Signature, VerifyingKey};
use sha3::{Digest, Keccak256};

/// The EIP-4361 version this server writes.
pub const VERSION: &str = "1";

/// The chain id the messages name: Ethereum mainnet. Signing a message needs no transaction, so
/// any chain the wallet is on signs the same text.
pub const CHAIN_ID: u64 = 1;

/// Keccak-256 of `data` (Ethereum's hash, not NIST SHA3-256).
pub fn keccak256(data: &[u8]) -> [u8; 32] {
    Keccak256::digest(data).into()
}

/// A 20-byte Ethereum account address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Address(pub [u8; 20]);

impl Address {
    /// Reads `0x` and 40 hex digits. All-lower-case and all-upper-case digits are taken as they
    /// are; mixed case must be the EIP-55 checksum (a mistyped address is refused, not guessed).
    pub fn parse(text: &str) -> Option<Address> {
        let hex = text.trim().strip_prefix("0x")?;
        if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        let bytes = data_encoding::HEXLOWER_PERMISSIVE
            .decode(hex.as_bytes())
            .ok()?;
        let address = Address(bytes.try_into().ok()?);
        let mixed = hex.bytes().any(|b| b.is_ascii_lowercase())
            && hex.bytes().any(|b| b.is_ascii_uppercase());
        if mixed && address.checksummed()[2..] != *hex {
            return None;
        }
        Some(address)
    }

    /// The address with the EIP-55 checksum: a hex letter is upper case when the matching
    /// nibble of the Keccak-256 of the lower-case hex is 8 or more.
    pub fn checksummed(&self) -> String {
        let lower = data_encoding::HEXLOWER.encode(&self.0);
        let hash = keccak256(lower.as_bytes());
        let mut out = String::with_capacity(42);
        out.push_str("0x");
        for (i, c) in lower.chars().enumerate() {
            let nibble = (hash[i / 2] >> (if i % 2 == 0 { 4 } else { 0 })) & 0x0f;
            out.push(if nibble >= 8 {
                c.to_ascii_uppercase()
            } else {
                c
            });
        }
        out
    }

    /// The address of a public key: the last 20 bytes of the Keccak-256 of its uncompressed
    /// coordinates.
    pub fn of_key(key: &VerifyingKey) -> Address {
        let point = key.to_sec1_point(false);
        let hash = keccak256(&point.as_bytes()[1..]);
        let mut bytes = [0u8; 20];
        bytes.copy_from_slice(&hash[12..]);
        Address(bytes)
    }
}

/// The EIP-191 (version `0x45`) hash a wallet's `personal_sign` signs:
/// `keccak256("\x19Ethereum Signed Message:\n" + len(message) + message)`.
pub fn personal_sign_hash(message: &[u8]) -> [u8; 32] {
    let mut hasher = Keccak256::new();
    hasher.update(b"\x19Ethereum Signed Message:\n");
    hasher.update(message.len().to_string().as_bytes());
    hasher.update(message);
    hasher.finalize().into()
}

/// The address that signed `message` with `personal_sign`, from the signature in its usual
/// form: `0x`, then `r` (32 bytes), `s` (32 bytes) and `v` (27 or 28; 0 or 1 accepted), in hex.
/// `None` when the signature is malformed or recovers no key.
pub fn recover(message: &str, signature: &str) -> Option<Address> {
    let hex = signature.trim();
    let hex = hex.strip_prefix("0x").unwrap_or(hex);
    if hex.len() != 130 {
        return None;
    }
    let bytes = data_encoding::HEXLOWER_PERMISSIVE
        .decode(hex.as_bytes())
        .ok()?;
    let v = match bytes[64] {
        27 | 28 => bytes[64] - 27,
        0 | 1 => bytes[64],
        _ => return None,
    };
    let mut signature = Signature::from_slice(&bytes[..64]).ok()?;
    let mut recovery = RecoveryId::from_byte(v)?;
    // A high `s` is the same signature mirrored; recovery works on the low form with the other
    // parity (ecrecover accepts both forms, and so do wallets' verifiers).
    let low = signature.normalize_s();
    if low != signature {
        signature = low;
        recovery = RecoveryId::new(!recovery.is_y_odd(), recovery.is_x_reduced());
    }
    let hash = personal_sign_hash(message.as_bytes());
    let key = VerifyingKey::recover_from_prehash(&hash, &signature, recovery).ok()?;
    Some(Address::of_key(&key))
}

/// The fields of an EIP-4361 message as this server writes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SiweMessage {
    /// The site asking (`host[:port]`), which the wallet compares with the page's origin.
    pub domain: String,
    /// The account, EIP-55 checksummed.
    pub address: Address,
    /// One line the wallet shows (no line break).
    pub statement: String,
    /// The origin the sign-in is for (`https://exchange.example`).
    pub uri: String,
    /// The chain the account is on.
    pub chain_id: u64,
    /// At least 8 letters or digits, used once.
    pub nonce: String,
    /// When it was issued, RFC 3339.
    pub issued_at: String,
    /// When it stops being accepted, RFC 3339.
    pub expiration_time: String,
}

impl SiweMessage {
    /// The text to sign, exactly as EIP-4361 lays it out.
    pub fn to_text(&self) -> String {
        format!(
            "{domain} wants you to sign in with your Ethereum account:\n{address}\n\n{statement}\n\n\
             URI: {uri}\nVersion: {VERSION}\nChain ID: {chain_id}\nNonce: {nonce}\n\
             Issued At: {issued_at}\nExpiration Time: {expiration_time}",
            domain = self.domain,
            address = self.address.checksummed(),
            statement = self.statement.replace(['\n', '\r'], " "),
            uri = self.uri,
            chain_id = self.chain_id,
            nonce = self.nonce,
            issued_at = self.issued_at,
            expiration_time = self.expiration_time,
        )
    }
}

/// The `Nonce:` of an EIP-4361 message text, if it has one.
pub fn nonce_of(message: &str) -> Option<&str> {
    message
        .lines()
        .find_map(|line| line.strip_prefix("Nonce: "))
        .map(str::trim)
        .filter(|nonce| nonce.len() >= 8 && nonce.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Unix milliseconds as RFC 3339 UTC with milliseconds (`2026-12-03T10:00:00.000Z`).
pub fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

#[cfg(test)]
pub(crate) mod tests;
