//! The challenge rules on a real database: a signed challenge verifies once; a reused, expired,
//! altered, foreign-signed or another user's challenge does not.

use k256::ecdsa::SigningKey;

use super::*;
use crate::wallet::siwe::tests::personal_sign;

const NOW: i64 = 1_796_000_000_000;

fn signer(byte: u8) -> SigningKey {
    SigningKey::from_slice(&[byte; 32]).unwrap()
}

fn address_of(key: &SigningKey) -> String {
    Address::of_key(key.verifying_key()).checksummed()
}

fn site() -> Site {
    Site {
        domain: "127.0.0.1:8080".into(),
        uri: "http://127.0.0.1:8080".into(),
        name: "Kestrel Exchange".into(),
    }
}

fn signed(challenge: &wallet_challenge::Model, key: &SigningKey) -> Signed {
    Signed {
        message: challenge.message.clone(),
        signature: personal_sign(key, &challenge.message),
    }
}

#[tokio::test]
async fn a_signed_challenge_verifies_once_before_it_expires() {
    let (_dir, _, db) = crate::db::temp_database().await;
    let key = signer(7);
    let address = address_of(&key);
    // Sent in lower case, named checksummed.
    let challenge = issue(
        &db,
        NOW,
        &site(),
        &address.to_lowercase(),
        Purpose::Login,
        None,
    )
    .await
    .unwrap();
    assert_eq!(challenge.address, address);
    assert!(
        challenge
            .message
            .starts_with("127.0.0.1:8080 wants you to sign in with your Ethereum account:\n")
    );
    assert!(challenge.message.contains(&format!("\n{address}\n")));
    assert!(
        challenge
            .message
            .contains("\nURI: http://127.0.0.1:8080\nVersion: 1\nChain ID: 1\n")
    );
    assert_eq!(
        siwe::nonce_of(&challenge.message),
        Some(challenge.nonce.as_str())
    );

    let answer = signed(&challenge, &key);
    let verified = verify(&db, NOW + 1, Purpose::Login, None, &answer)
        .await
        .unwrap();
    assert_eq!(verified.id, challenge.id);
    consume(&db, NOW + 1, &verified).await.unwrap();

    // Reused: refused, by verify and by a racing consume alike.
    let reused = verify(&db, NOW + 2, Purpose::Login, None, &answer)
        .await
        .unwrap_err();
    assert_eq!(reused.msg, Msg::WalletChallengeExpired);
    assert_eq!(
        consume(&db, NOW + 2, &verified).await.unwrap_err().msg,
        Msg::WalletChallengeExpired
    );
}

#[tokio::test]
async fn an_expired_altered_foreign_or_misdirected_challenge_is_refused() {
    let (_dir, _, db) = crate::db::temp_database().await;
    let key = signer(7);
    let challenge = issue(&db, NOW, &site(), &address_of(&key), Purpose::Login, None)
        .await
        .unwrap();
    let answer = signed(&challenge, &key);

    let late = verify(&db, NOW + CHALLENGE_TTL_MS, Purpose::Login, None, &answer)
        .await
        .unwrap_err();
    assert_eq!(late.msg, Msg::WalletChallengeExpired);
    assert_eq!(
        consume(&db, NOW + CHALLENGE_TTL_MS, &challenge)
            .await
            .unwrap_err()
            .msg,
        Msg::WalletChallengeExpired
    );

    // Another key signs the challenge of this address.
    let foreign = signed(&challenge, &signer(9));
    let refused = verify(&db, NOW + 1, Purpose::Login, None, &foreign)
        .await
        .unwrap_err();
    assert_eq!(refused.msg, Msg::WalletSignatureInvalid);
    assert_eq!(refused.field.as_deref(), Some("signature"));

    // The text changed (another domain), signed as changed: not what was issued.
    let altered_text = challenge
        .message
        .replace("127.0.0.1:8080 wants", "evil.example wants");
    let altered = Signed {
        signature: personal_sign(&key, &altered_text),
        message: altered_text,
    };
    assert_eq!(
        verify(&db, NOW + 1, Purpose::Login, None, &altered)
            .await
            .unwrap_err()
            .msg,
        Msg::WalletMessageAltered
    );
    // No nonce at all.
    let bare = Signed {
        message: "hello".into(),
        signature: answer.signature.clone(),
    };
    assert_eq!(
        verify(&db, NOW + 1, Purpose::Login, None, &bare)
            .await
            .unwrap_err()
            .msg,
        Msg::WalletMessageAltered
    );

    // A login challenge does not link, and a link challenge is its user's only.
    assert_eq!(
        verify(&db, NOW + 1, Purpose::Link, Some(1), &answer)
            .await
            .unwrap_err()
            .msg,
        Msg::WalletChallengeExpired
    );
    let link = issue(&db, NOW, &site(), &address_of(&key), Purpose::Link, Some(1))
        .await
        .unwrap();
    let link_answer = signed(&link, &key);
    assert_eq!(
        verify(&db, NOW + 1, Purpose::Link, Some(2), &link_answer)
            .await
            .unwrap_err()
            .msg,
        Msg::WalletChallengeExpired
    );
    assert!(
        verify(&db, NOW + 1, Purpose::Link, Some(1), &link_answer)
            .await
            .is_ok()
    );

    // The untouched answer still verifies: the refusals used nothing up.
    assert!(
        verify(&db, NOW + 1, Purpose::Login, None, &answer)
            .await
            .is_ok()
    );
}

#[tokio::test]
async fn a_malformed_address_is_refused_on_its_field() {
    let (_dir, _, db) = crate::db::temp_database().await;
    for bad in ["", "0x1234", "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD"] {
        let refused = issue(&db, NOW, &site(), bad, Purpose::Login, None)
            .await
            .unwrap_err();
        assert_eq!(refused.msg, Msg::WalletAddressInvalid);
        assert_eq!(refused.field.as_deref(), Some("address"));
    }
}
