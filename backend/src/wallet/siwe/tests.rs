//! Fixed vectors: EIP-55's checksummed addresses, web3.js's `personal_sign` example, and
//! EIP-4361 messages signed with a fixed test key (the key of the e2e suite's wallet).

use k256::ecdsa::SigningKey;

use super::*;

/// The web3.js documentation's account (`web3.eth.accounts.sign`).
const WEB3_KEY: &str = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318";
const WEB3_ADDRESS: &str = "0x2c7536E3605D9C16a7a3D7b1898e529396a65c23";
const WEB3_SIGNATURE: &str = "0xb91467e570a6466aa9e9876cbcd013baba02900b8979d43fe208a4a4f339f5fd\
                              6007e74cd82e037b800186422fc2da167c747ef045e5d18a5f5d4300f8e1a0291c";

fn key(hex: &str) -> SigningKey {
    SigningKey::from_slice(&data_encoding::HEXLOWER.decode(hex.as_bytes()).unwrap()).unwrap()
}

/// `personal_sign` of `message` by `key`, as a wallet answers it (`0x` r s v, v 27 or 28).
pub fn personal_sign(key: &SigningKey, message: &str) -> String {
    let (signature, recovery) =
        key.sign_prehash_recoverable(&personal_sign_hash(message.as_bytes()));
    let mut bytes = signature.to_bytes().to_vec();
    bytes.push(27 + recovery.to_byte());
    format!("0x{}", data_encoding::HEXLOWER.encode(&bytes))
}

fn message(address: Address, nonce: &str) -> SiweMessage {
    SiweMessage {
        domain: "127.0.0.1:8080".into(),
        address,
        statement: "Sign in to Kestrel Exchange with your wallet.".into(),
        uri: "http://127.0.0.1:8080".into(),
        chain_id: CHAIN_ID,
        nonce: nonce.into(),
        issued_at: rfc3339(1_796_000_000_000),
        expiration_time: rfc3339(1_796_000_300_000),
    }
}

#[test]
fn eip55_vectors_checksum_and_parse() {
    for text in [
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
        "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
        "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ] {
        let address = Address::parse(text).unwrap();
        assert_eq!(address.checksummed(), text);
        assert_eq!(Address::parse(&text.to_lowercase()), Some(address));
        assert_eq!(
            Address::parse(&format!("0x{}", text[2..].to_uppercase())),
            Some(address)
        );
    }
    // One letter's case flipped breaks the checksum.
    assert_eq!(
        Address::parse("0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"),
        None
    );
    for bad in [
        "",
        "0x",
        "5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
        "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAe",
        "0xzzAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
    ] {
        assert_eq!(Address::parse(bad), None, "{bad}");
    }
}

#[test]
fn a_keys_address_is_the_tail_of_the_keccak_of_its_point() {
    assert_eq!(
        Address::of_key(key(WEB3_KEY).verifying_key()).checksummed(),
        WEB3_ADDRESS
    );
    // ethers' documentation wallet.
    assert_eq!(
        Address::of_key(
            key("0123456789012345678901234567890123456789012345678901234567890123").verifying_key()
        )
        .checksummed(),
        "0x14791697260E4c9A71f18484C9f997B308e59325"
    );
}

#[test]
fn the_web3_personal_sign_vector_recovers_its_address() {
    assert_eq!(
        data_encoding::HEXLOWER.encode(&personal_sign_hash(b"Some data")),
        "1da44b586eb0729ff70a73c326926f6ed5a25f5b056e7f47fbc6e58d86871655"
    );
    let signature: String = WEB3_SIGNATURE.split_whitespace().collect();
    assert_eq!(
        recover("Some data", &signature)
            .map(|a| a.checksummed())
            .as_deref(),
        Some(WEB3_ADDRESS)
    );
    // Our signer gives the same (RFC 6979) signature.
    assert_eq!(personal_sign(&key(WEB3_KEY), "Some data"), signature);
    // Another message does not recover the address.
    assert_ne!(
        recover("Some data.", &signature)
            .map(|a| a.checksummed())
            .as_deref(),
        Some(WEB3_ADDRESS)
    );
}

#[test]
fn a_signed_eip4361_message_verifies_and_an_altered_or_foreign_one_does_not() {
    let signer = key(WEB3_KEY);
    let address = Address::of_key(signer.verifying_key());
    let text = message(address, "k3stre1N0nce0001").to_text();
    assert_eq!(
        text,
        "127.0.0.1:8080 wants you to sign in with your Ethereum account:\n\
         0x2c7536E3605D9C16a7a3D7b1898e529396a65c23\n\n\
         Sign in to Kestrel Exchange with your wallet.\n\n\
         URI: http://127.0.0.1:8080\nVersion: 1\nChain ID: 1\nNonce: k3stre1N0nce0001\n\
         Issued At: 2026-11-30T00:53:20.000Z\nExpiration Time: 2026-11-30T00:58:20.000Z"
    );
    assert_eq!(nonce_of(&text), Some("k3stre1N0nce0001"));
    let signature = personal_sign(&signer, &text);
    assert_eq!(recover(&text, &signature), Some(address));

    // The message altered after signing (another domain) recovers some other address.
    let altered = text.replace("127.0.0.1:8080 wants", "evil.example wants");
    assert_ne!(recover(&altered, &signature), Some(address));
    // Another key's signature of the same text is not this address's.
    let other = key("0123456789012345678901234567890123456789012345678901234567890123");
    assert_ne!(recover(&text, &personal_sign(&other, &text)), Some(address));
    // v as 0/1 is the same signature; a broken v, length or hex is none.
    let raw_v = format!(
        "{}{:02x}",
        &signature[..130],
        u8::from_str_radix(&signature[130..], 16).unwrap() - 27
    );
    assert_eq!(recover(&text, &raw_v), Some(address));
    assert_eq!(recover(&text, &format!("{}1d", &signature[..130])), None);
    assert_eq!(recover(&text, &signature[..128]), None);
    assert_eq!(
        recover(&text, &format!("{}g{}", &signature[..10], &signature[11..])),
        None
    );
}

#[test]
fn a_high_s_signature_recovers_the_same_address() {
    let signer = key(WEB3_KEY);
    let address = Address::of_key(signer.verifying_key());
    let text = message(address, "HighSNonce000001").to_text();
    let (signature, recovery) =
        signer.sign_prehash_recoverable(&personal_sign_hash(text.as_bytes()));
    // s' = n - s with the other parity is the mirrored signature.
    let (r, s) = signature.split_scalars();
    let high = Signature::from_scalars(r.to_bytes(), (-*s).to_bytes()).unwrap();
    let mut bytes = high.to_bytes().to_vec();
    bytes.push(27 + (recovery.to_byte() ^ 1));
    let hex = format!("0x{}", data_encoding::HEXLOWER.encode(&bytes));
    assert_eq!(recover(&text, &hex), Some(address));
}

#[test]
fn nonces_are_read_from_their_line_only_when_well_formed() {
    assert_eq!(nonce_of("a\nNonce: abcdEFGH12\nb"), Some("abcdEFGH12"));
    assert_eq!(nonce_of("Nonce: short"), None);
    assert_eq!(nonce_of("Nonce: has-dash-in-it"), None);
    assert_eq!(nonce_of("no nonce"), None);
}
