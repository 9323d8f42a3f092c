//! Withdrawal addresses per network, with each network's real checksum:
//!
//! | network | names accepted (any case) | accepted addresses |
//! |---|---|---|
//! | [`Network::Bitcoin`] | `BTC`, `BITCOIN` | Base58Check P2PKH (`1…`, version 0x00) and P2SH (`3…`, version 0x05); SegWit `bc1…` with a Bech32 (v0) or Bech32m (v1–16) checksum |
//! | [`Network::Evm`] | `ETH`, `ERC20`, `ERC-20`, `BSC`, `BEP20`, `BEP-20` | `0x` and 40 hex digits; all lower or all upper case, or mixed case matching its EIP-55 checksum |
//! | [`Network::Tron`] | `TRX`, `TRON`, `TRC20`, `TRC-20` | Base58Check of 25 bytes with version 0x41, which always starts with `T` |
//!
//! Mainnet only: Bitcoin testnet (`m…`, `n…`, `2…`, `tb1…`) is refused. Surrounding whitespace is not
//! trimmed: an address is checked exactly as it would be sent. The hashes (SHA-256, Keccak-256) are
//! implemented in this module so the core needs no hashing crate.

mod base58;
mod bech32;
mod keccak;
mod sha256;

use super::Violation;

/// A network family whose addresses the core can check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Network {
    /// Bitcoin mainnet.
    Bitcoin,
    /// Ethereum and EVM chains with the same address format (ERC-20, BNB Smart Chain BEP-20).
    Evm,
    /// TRON (TRX and TRC-20 tokens).
    Tron,
}

impl Network {
    /// The network family a product network name denotes (table in [`crate::validate::address`]),
    /// ignoring case and surrounding whitespace; `None` for a network the core cannot check.
    pub fn from_name(name: &str) -> Option<Self> {
        let name = name.trim();
        let is = |candidate: &str| name.eq_ignore_ascii_case(candidate);
        if is("BTC") || is("BITCOIN") {
            Some(Self::Bitcoin)
        } else if ["ETH", "ERC20", "ERC-20", "BSC", "BEP20", "BEP-20"]
            .into_iter()
            .any(is)
        {
            Some(Self::Evm)
        } else if ["TRX", "TRON", "TRC20", "TRC-20"].into_iter().any(is) {
            Some(Self::Tron)
        } else {
            None
        }
    }

    /// Whether `hash` has the form of a transaction id on this network: 64 hex digits, with `0x`
    /// before them on EVM chains and without on Bitcoin and TRON (any case; checked exactly as
    /// given, no trimming).
    pub fn accepts_tx_hash(self, hash: &str) -> bool {
        let digits = match self {
            Self::Evm => match hash.strip_prefix("0x") {
                Some(digits) => digits,
                None => return false,
            },
            Self::Bitcoin | Self::Tron => hash,
        };
        digits.len() == 64 && digits.bytes().all(|b| b.is_ascii_hexdigit())
    }

    /// Whether `address` is a well-formed address of this network with a correct checksum.
    pub fn accepts(self, address: &str) -> bool {
        match self {
            Self::Bitcoin => is_bitcoin_address(address),
            Self::Evm => is_evm_address(address),
            Self::Tron => is_tron_address(address),
        }
    }
}

/// Checks `address` for the network named `network` (see [`Network::from_name`]).
///
/// Fails with [`Violation::Required`] for an empty address, [`Violation::UnsupportedNetwork`] when
/// the core cannot check the network, and [`Violation::InvalidAddress`] (carrying `network` as given)
/// when the address is malformed or its checksum is wrong.
pub fn validate_address(network: &str, address: &str) -> Result<(), Violation> {
    if address.is_empty() {
        return Err(Violation::Required);
    }
    let family = Network::from_name(network).ok_or_else(|| Violation::UnsupportedNetwork {
        network: network.to_owned(),
    })?;
    if family.accepts(address) {
        Ok(())
    } else {
        Err(Violation::InvalidAddress {
            network: network.to_owned(),
        })
    }
}

fn is_bitcoin_address(address: &str) -> bool {
    if address
        .get(..3)
        .is_some_and(|p| p.eq_ignore_ascii_case("bc1"))
    {
        return bech32::is_segwit_address("bc", address);
    }
    base58::decode_check::<25>(address).is_some_and(|payload| matches!(payload[0], 0x00 | 0x05))
}

fn is_tron_address(address: &str) -> bool {
    base58::decode_check::<25>(address).is_some_and(|payload| payload[0] == 0x41)
}

fn is_evm_address(address: &str) -> bool {
    let Some(hex) = address.strip_prefix("0x") else {
        return false;
    };
    if hex.len() != 40 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return false;
    }
    let has_lower = hex.bytes().any(|b| b.is_ascii_lowercase());
    let has_upper = hex.bytes().any(|b| b.is_ascii_uppercase());
    if !(has_lower && has_upper) {
        // Single-case addresses carry no checksum (EIP-55 keeps them valid).
        return true;
    }
    // EIP-55: a letter is upper case exactly when the matching nibble of the Keccak-256 of the
    // lower-case hex text is 8 or more.
    let hash = keccak::keccak256(hex.to_ascii_lowercase().as_bytes());
    hex.bytes().enumerate().all(|(i, b)| {
        let nibble = (hash[i / 2] >> if i % 2 == 0 { 4 } else { 0 }) & 0x0f;
        !b.is_ascii_alphabetic() || b.is_ascii_uppercase() == (nibble >= 8)
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn transaction_hashes_have_each_networks_form() {
        let hex = "a".repeat(63) + "F";
        assert!(Network::Bitcoin.accepts_tx_hash(&hex));
        assert!(Network::Tron.accepts_tx_hash(&hex));
        assert!(!Network::Evm.accepts_tx_hash(&hex));
        assert!(Network::Evm.accepts_tx_hash(&format!("0x{hex}")));
        assert!(!Network::Bitcoin.accepts_tx_hash(&format!("0x{hex}")));
        for wrong in [
            "abc",
            "",
            &"a".repeat(65),
            &("g".to_owned() + &"a".repeat(63)),
        ] {
            assert!(!Network::Bitcoin.accepts_tx_hash(wrong), "{wrong}");
            assert!(
                !Network::Evm.accepts_tx_hash(&format!("0x{wrong}")),
                "{wrong}"
            );
        }
    }

    use super::*;

    const VALID: &[(&str, &str)] = &[
        ("BTC", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa"),
        ("BTC", "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy"),
        ("BTC", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"),
        ("BTC", "BC1QAR0SRRR7XFKVY5L643LYDNW9RE59GTZZWF5MDQ"),
        (
            "BTC",
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
        ),
        ("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed"),
        ("ERC20", "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359"),
        ("ERC20", "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB"),
        ("BEP20", "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb"),
        ("ETH", "0x52908400098527886E0F7030069857D2E4169EE7"),
        ("ETH", "0xde709f2102306220921060314715629080e2fb77"),
        ("TRC20", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7"),
        ("TRX", "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t"),
    ];

    #[test]
    fn real_addresses_pass() {
        for (network, address) in VALID {
            assert_eq!(validate_address(network, address), Ok(()), "{address}");
        }
    }

    #[test]
    fn every_single_character_change_fails() {
        // Replacing any one character by any other character of the address's own alphabet must
        // break it (a checksum, or the shape). Single-case ETH addresses have no checksum, and
        // changing a letter's case in a Bech32 address only makes it mixed-case, so both are skipped
        // for the changes they cannot detect.
        for (network, address) in VALID {
            let family = Network::from_name(network).unwrap();
            let evm_unchecked = family == Network::Evm
                && !(address[2..].bytes().any(|b| b.is_ascii_lowercase())
                    && address[2..].bytes().any(|b| b.is_ascii_uppercase()));
            if evm_unchecked {
                continue;
            }
            let alphabet: Vec<char> = match family {
                Network::Evm => "0123456789abcdefABCDEF".chars().collect(),
                _ => "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz0"
                    .chars()
                    .collect(),
            };
            let skip_prefix = if family == Network::Evm { 2 } else { 0 };
            for (i, original) in address.char_indices().skip(skip_prefix) {
                for &replacement in &alphabet {
                    if replacement == original {
                        continue;
                    }
                    let mut mutated = address.to_string();
                    mutated.replace_range(i..i + 1, &replacement.to_string());
                    assert!(
                        !family.accepts(&mutated),
                        "{network} {mutated} (from {address})"
                    );
                }
            }
        }
    }

    #[test]
    fn eip_55_case_flips_fail() {
        let address = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed";
        for (i, c) in address.char_indices().skip(2) {
            if c.is_ascii_alphabetic() {
                let mut flipped = address.to_string();
                let swapped = if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                };
                flipped.replace_range(i..i + 1, &swapped.to_string());
                assert!(!is_evm_address(&flipped), "{flipped}");
            }
        }
    }

    #[test]
    fn wrong_network_or_shape_fails() {
        let invalid = |network: &str, address: &str| {
            assert_eq!(
                validate_address(network, address),
                Err(Violation::InvalidAddress {
                    network: network.into()
                }),
                "{network} {address}"
            );
        };
        invalid("BTC", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7");
        invalid("TRC20", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
        invalid("ETH", "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        invalid("ETH", "0X5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed");
        invalid("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe");
        invalid("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAedd");
        invalid("ETH", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeg");
        invalid("BTC", " 1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa");
        invalid("BTC", "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx");
        invalid("BTC", "mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn");
        invalid("BTC", "bc1");
        invalid("BTC", "1");
        assert_eq!(validate_address("BTC", ""), Err(Violation::Required));
        assert_eq!(
            validate_address("SOL", "x"),
            Err(Violation::UnsupportedNetwork {
                network: "SOL".into()
            })
        );
    }

    #[test]
    fn network_names() {
        assert_eq!(Network::from_name(" trc20 "), Some(Network::Tron));
        assert_eq!(Network::from_name("Bep-20"), Some(Network::Evm));
        assert_eq!(Network::from_name("bitcoin"), Some(Network::Bitcoin));
        assert_eq!(Network::from_name("SOL"), None);
        assert_eq!(Network::from_name(""), None);
    }
}
