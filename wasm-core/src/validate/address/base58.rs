//! Base58Check, the address encoding of Bitcoin's legacy addresses and of TRON: Base58 digits (no
//! `0`, `O`, `I` or `l`) of a payload followed by the first four bytes of its double SHA-256.

use super::sha256::double_sha256;

const ALPHABET: &[u8; 58] = b"123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";

/// The longest Base58Check text decoded: every address checked here is 25 bytes, at most 35 digits;
/// longer text is rejected before the quadratic decoding runs.
const MAX_TEXT: usize = 64;

/// The payload of a Base58Check text of exactly `N` bytes including its 4-byte checksum, with the
/// checksum verified and removed; `None` for any other text.
pub(crate) fn decode_check<const N: usize>(text: &str) -> Option<Vec<u8>> {
    let bytes = decode::<N>(text)?;
    let (payload, checksum) = bytes.split_at(N - 4);
    (double_sha256(payload)[..4] == *checksum).then(|| payload.to_vec())
}

/// The `N` bytes that the Base58 text encodes, or `None` when the text has a character outside the
/// alphabet or does not encode exactly `N` bytes (leading `1`s encode leading zero bytes).
fn decode<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.is_empty() || text.len() > MAX_TEXT {
        return None;
    }
    let zeros = text.bytes().take_while(|&b| b == b'1').count();
    // Big-endian base-256 number, least significant byte last, built digit by digit.
    let mut number = [0_u8; N];
    for byte in text.bytes() {
        let mut carry = ALPHABET.iter().position(|&a| a == byte)? as u32;
        for slot in number.iter_mut().rev() {
            carry += u32::from(*slot) * 58;
            *slot = carry as u8;
            carry >>= 8;
        }
        if carry != 0 {
            return None;
        }
    }
    // The leading `1`s must be exactly the leading zero bytes, or the encoding is not canonical.
    let leading_zero_bytes = number.iter().take_while(|&&b| b == 0).count();
    (leading_zero_bytes == zeros).then_some(number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_the_genesis_address() {
        let payload = decode_check::<25>("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa").unwrap();
        assert_eq!(payload.len(), 21);
        assert_eq!(payload[0], 0);
        assert_eq!(payload[1..4], [0x62, 0xe9, 0x07]);
    }

    #[test]
    fn rejects_bad_text() {
        assert_eq!(decode_check::<25>(""), None);
        assert_eq!(decode_check::<25>("0OIl"), None);
        // One changed character breaks the checksum.
        assert_eq!(
            decode_check::<25>("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb"),
            None
        );
        // Too many digits overflow 25 bytes.
        assert_eq!(decode_check::<25>(&"z".repeat(40)), None);
        // An extra leading `1` is an extra zero byte, so not 25 bytes.
        assert_eq!(
            decode_check::<25>("11A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
            None
        );
    }
}
