//! Bech32 (BIP 173) and Bech32m (BIP 350), the encodings of Bitcoin's native SegWit addresses
//! (`bc1q…` for witness version 0, `bc1p…` for Taproot and later versions).

const CHARSET: &[u8; 32] = b"qpzry9x8gf2tvdw0s3jn54khce6mua7l";

/// The checksum constant of Bech32, used by witness version 0.
const BECH32: u32 = 1;
/// The checksum constant of Bech32m, used by witness versions 1 to 16.
const BECH32M: u32 = 0x2bc8_30a3;

/// The longest Bech32 string (BIP 173).
const MAX_LEN: usize = 90;

/// Whether `text` is a valid SegWit address for the human-readable part `hrp` (`bc` on mainnet):
/// one case throughout, a correct Bech32 checksum for witness version 0 (program of 20 or 32 bytes)
/// or Bech32m for versions 1 to 16 (program of 2 to 40 bytes), and zero padding bits.
pub(crate) fn is_segwit_address(hrp: &str, text: &str) -> bool {
    if text.len() > MAX_LEN || !text.is_ascii() {
        return false;
    }
    let has_lower = text.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = text.bytes().any(|b| b.is_ascii_uppercase());
    if has_lower && has_upper {
        return false;
    }
    let lower = text.to_ascii_lowercase();
    let Some((found_hrp, data)) = lower.rsplit_once('1') else {
        return false;
    };
    if found_hrp != hrp || data.len() < 7 {
        return false;
    }
    let Some(values) = data
        .bytes()
        .map(|b| CHARSET.iter().position(|&c| c == b).map(|v| v as u8))
        .collect::<Option<Vec<u8>>>()
    else {
        return false;
    };
    let (payload, _checksum) = values.split_at(values.len() - 6);
    let Some((&version, program5)) = payload.split_first() else {
        return false;
    };
    let expected = if version == 0 { BECH32 } else { BECH32M };
    if version > 16 || polymod_of(hrp, &values) != expected {
        return false;
    }
    let Some(program) = regroup_5_to_8(program5) else {
        return false;
    };
    match version {
        0 => program.len() == 20 || program.len() == 32,
        _ => (2..=40).contains(&program.len()),
    }
}

/// The BCH checksum polynomial over the expanded human-readable part and the data values.
fn polymod_of(hrp: &str, values: &[u8]) -> u32 {
    let expanded = hrp
        .bytes()
        .map(|b| b >> 5)
        .chain(std::iter::once(0))
        .chain(hrp.bytes().map(|b| b & 31));
    expanded.chain(values.iter().copied()).fold(1, polymod_step)
}

fn polymod_step(checksum: u32, value: u8) -> u32 {
    const GENERATOR: [u32; 5] = [
        0x3b6a_57b2,
        0x2650_8e6d,
        0x1ea1_19fa,
        0x3d42_33dd,
        0x2a14_62b3,
    ];
    let top = checksum >> 25;
    let mut next = ((checksum & 0x01ff_ffff) << 5) ^ u32::from(value);
    for (bit, generator) in GENERATOR.iter().enumerate() {
        if (top >> bit) & 1 == 1 {
            next ^= generator;
        }
    }
    next
}

/// Regroups 5-bit values into bytes; `None` when more than 4 bits are left over or they are not
/// zero (BIP 173's rule for witness programs).
fn regroup_5_to_8(values: &[u8]) -> Option<Vec<u8>> {
    let mut bytes = Vec::with_capacity(values.len() * 5 / 8);
    let (mut acc, mut bits) = (0_u32, 0_u32);
    for &value in values {
        acc = (acc << 5) | u32::from(value);
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            bytes.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    (bits < 5 && acc == 0).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bip_173_and_350_valid_mainnet_addresses() {
        for address in [
            "BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4",
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
            "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
            "BC1SW50QGDZ25J",
            "bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs",
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
        ] {
            assert!(is_segwit_address("bc", address), "{address}");
        }
    }

    #[test]
    fn bip_173_and_350_invalid_addresses() {
        for address in [
            // Wrong human-readable part (testnet), mixed case, bad checksums, bad lengths.
            "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx",
            "bc1qW508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5",
            "BC13W508D6QEJXTDG4Y5R3ZARVARY0C5XW7KN40WF2",
            "bc1rw5uspcuh",
            "bc10w508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kw5rljs90",
            "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",
            "bc1zw508d6qejxtdg4y5r3zarvaryvqyzf3du",
            "bc1gmk9yu",
            // Version 0 with a Bech32m checksum, version 1 with a Bech32 checksum (BIP 350).
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut",
            "bc1",
            "",
        ] {
            assert!(!is_segwit_address("bc", address), "{address}");
        }
    }
}
