//! Sign-In with Ethereum against the real app: a member links a wallet (after re-authenticating)
//! and signs in with it into the same kind of session as a password login — 2FA step, frozen
//! account, login log and new-device notice included —; a signature is used once, expires, and
//! must be the named wallet's over the issued text; a wallet belongs to one account; unlinking
//! needs re-authentication and ends wallet sign-in.

use backend::entity::notification;
use backend::wallet::siwe::{Address, personal_sign_hash};
use k256::ecdsa::SigningKey;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, confirm_identity, spawn_app};

/// The member-area prefix with the configured head (`coin`).
const M: &str = "/api/coin/coin";

/// The e2e suite's wallet key (also in `e2e/fixtures/wallet.ts`).
const KEY: [u8; 32] = [0x42; 32];

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

/// A test wallet: its key and checksummed address.
struct Wallet {
    key: SigningKey,
    address: String,
}

impl Wallet {
    fn new(seed: [u8; 32]) -> Self {
        let key = SigningKey::from_slice(&seed).expect("a valid key");
        let address = Address::of_key(key.verifying_key()).checksummed();
        Self { key, address }
    }

    /// `personal_sign` as a wallet answers it: `0x` r s v.
    fn sign(&self, message: &str) -> String {
        let (signature, recovery) = self
            .key
            .sign_prehash_recoverable(&personal_sign_hash(message.as_bytes()));
        let mut bytes = signature.to_bytes().to_vec();
        bytes.push(27 + recovery.to_byte());
        format!("0x{}", data_encoding::HEXLOWER.encode(&bytes))
    }
}

/// The sign-in message for `address`.
async fn login_challenge(app: &TestApp, address: &str) -> String {
    let (status, body) = app
        .post(
            "/api/user/wallet/challenge",
            Some(&json!({"address": address}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["message"]
        .as_str()
        .expect("message")
        .to_owned()
}

/// `POST /api/user/wallet/login` with `body` and a user agent.
async fn wallet_login(app: &TestApp, body: Value, agent: &str) -> (u16, Value) {
    app.post(
        "/api/user/wallet/login",
        Some(&body.to_string()),
        &[("user-agent", agent)],
    )
    .await
}

/// Challenge, sign and sign in with `wallet`.
async fn sign_in(app: &TestApp, wallet: &Wallet) -> (u16, Value) {
    let message = login_challenge(app, &wallet.address).await;
    let signature = wallet.sign(&message);
    wallet_login(
        app,
        json!({"message": message, "signature": signature}),
        "WalletTest/1.0",
    )
    .await
}

/// Links `wallet` to `member`: the answer of the challenge when it fails, else of the link.
async fn link(app: &TestApp, member: &Member, wallet: &Wallet) -> (u16, Value) {
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/wallet/challenge"),
            Some(json!({"address": wallet.address})),
        )
        .await;
    if status != 200 {
        return (status, body);
    }
    let message = body["data"]["message"].as_str().unwrap().to_owned();
    let signature = wallet.sign(&message);
    app.post_as(
        &member.token,
        &format!("{M}/member/wallet/link"),
        Some(json!({"message": message, "signature": signature})),
    )
    .await
}

#[tokio::test]
async fn a_linked_wallet_signs_in_to_its_account_once_per_message() {
    let app = spawn_app().await;
    let member = app.member("wallet-ada@example.com").await;
    let wallet = Wallet::new(KEY);

    // The message is EIP-4361, for this site, naming the address checksummed.
    let message = login_challenge(&app, &wallet.address.to_lowercase()).await;
    let lines: Vec<&str> = message.lines().collect();
    assert!(
        lines[0].ends_with(" wants you to sign in with your Ethereum account:"),
        "{message}"
    );
    assert!(lines[0].starts_with("127.0.0.1:"), "{message}");
    assert_eq!(lines[1], wallet.address);
    assert!(lines.contains(&"Version: 1") && lines.contains(&"Chain ID: 1"));
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("URI: http://127.0.0.1:"))
    );
    assert!(lines.iter().any(|l| l.starts_with("Expiration Time: ")));

    // Not linked yet: the signature is right, the account unknown.
    let (status, body) = sign_in(&app, &wallet).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_not_linked"),
        "{body}"
    );

    // Linking is a security change: it needs a recent re-authentication.
    let (status, body) = link(&app, &member, &wallet).await;
    assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    confirm_identity(&app, &member).await;
    let (status, body) = link(&app, &member, &wallet).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["walletAddress"], wallet.address.as_str());
    let (_, info) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(info["data"]["walletAddress"], wallet.address.as_str());

    // Signing in: a session of the same account, logged, announced as a new device.
    let message = login_challenge(&app, &wallet.address).await;
    let signature = wallet.sign(&message);
    let answer = json!({"message": message, "signature": signature});
    let (status, body) = wallet_login(&app, answer.clone(), "WalletTest/1.0").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["userId"], member.user_id);
    let token = body["data"]["satoken"].as_str().unwrap().to_owned();
    let (status, info) = app.post_as(&token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["data"]["user"]["userId"], member.user_id);
    let (_, log) = app
        .get_as(&token, &format!("{M}/member/getLoginLog?page=1&pageSize=1"))
        .await;
    assert_eq!(log["data"]["records"][0]["success"], true, "{log}");
    assert_eq!(log["data"]["records"][0]["userAgent"], "WalletTest/1.0");
    let notices = notification::Entity::find()
        .filter(notification::Column::UserId.eq(member.user_id))
        .filter(notification::Column::Kind.eq("new_login"))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(notices.len(), 1, "a new device is announced");

    // The same signature again: the message was used.
    let (status, body) = wallet_login(&app, answer, "WalletTest/1.0").await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_challenge_expired"),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_signer_an_altered_text_or_a_late_answer_is_refused() {
    let app = spawn_app().await;
    let member = app.member("wallet-bea@example.com").await;
    let wallet = Wallet::new(KEY);
    confirm_identity(&app, &member).await;
    assert_eq!(link(&app, &member, &wallet).await.0, 200);

    // Another wallet's signature of this wallet's message.
    let message = login_challenge(&app, &wallet.address).await;
    let intruder = Wallet::new([0x17; 32]);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": intruder.sign(&message)}),
        "x",
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_signature_invalid"),
        "{body}"
    );
    assert_eq!(body["data"]["field"], "signature", "{body}");
    // The text changed (another site), signed by the wallet as changed.
    let altered = message.replacen("127.0.0.1", "evil.example", 1);
    let (status, body) = wallet_login(
        &app,
        json!({"message": altered, "signature": wallet.sign(&altered)}),
        "x",
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_message_altered"),
        "{body}"
    );
    // Garbage for a signature.
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": "0x1234"}),
        "x",
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_signature_invalid"),
        "{body}"
    );
    // A malformed address gets no message.
    let (status, body) = app
        .post(
            "/api/user/wallet/challenge",
            Some(&json!({"address": "0x1234"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_address_invalid"),
        "{body}"
    );

    // Five minutes later the message is refused though rightly signed.
    app.state().clock.advance(5 * 60_000);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": wallet.sign(&message)}),
        "x",
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_challenge_expired"),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_wallet_belongs_to_one_account_and_unlinking_needs_reauth() {
    let app = spawn_app().await;
    let ada = app.member("wallet-cid@example.com").await;
    let bob = app.member("wallet-dan@example.com").await;
    let wallet = Wallet::new(KEY);
    confirm_identity(&app, &ada).await;
    confirm_identity(&app, &bob).await;
    assert_eq!(link(&app, &ada, &wallet).await.0, 200);
    // A security e-mail names the wallet.
    let linked = app
        .mail_arrived("wallet-cid@example.com", "Kestrel Exchange: wallet linked")
        .await;
    assert!(
        linked[0]["body"]
            .as_str()
            .unwrap()
            .contains(&wallet.address),
        "{linked:?}"
    );
    let (status, body) = link(&app, &bob, &wallet).await;
    assert_eq!((status, reason(&body)), (409, "wallet_taken"), "{body}");

    // Unlinking needs a recent re-authentication, then wallet sign-in stops.
    let other = app
        .login("wallet-cid@example.com", crate::helpers::PASSWORD)
        .await;
    let (status, body) = app
        .post_as(&other, &format!("{M}/member/wallet/unlink"), None)
        .await;
    assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    let (status, body) = app
        .post_as(&ada.token, &format!("{M}/member/wallet/unlink"), None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"].get("walletAddress").is_none(), "{body}");
    let unlinked = app
        .mail_arrived(
            "wallet-cid@example.com",
            "Kestrel Exchange: wallet unlinked",
        )
        .await;
    assert!(
        unlinked[0]["body"]
            .as_str()
            .unwrap()
            .contains(&wallet.address),
        "{unlinked:?}"
    );
    // Unlinking again changes nothing and sends nothing.
    let (status, body) = app
        .post_as(&ada.token, &format!("{M}/member/wallet/unlink"), None)
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = sign_in(&app, &wallet).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_not_linked"),
        "{body}"
    );

    // Free again: another account may link it.
    let (status, body) = link(&app, &bob, &wallet).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = sign_in(&app, &wallet).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["userId"], bob.user_id);
    app.stop().await;
}

#[tokio::test]
async fn wallet_sign_in_asks_for_the_authenticator_and_refuses_a_frozen_account() {
    let app = spawn_app().await;
    let member = app.member("wallet-eve@example.com").await;
    let wallet = Wallet::new(KEY);
    let (secret, step) = crate::security::enable_totp(&app, &member).await;
    assert_eq!(link(&app, &member, &wallet).await.0, 200);

    // 2FA on: the signature alone is not enough; the same answer with the code is, once.
    let message = login_challenge(&app, &wallet.address).await;
    let signature = wallet.sign(&message);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": signature}),
        "x",
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "totp_required"), "{body}");
    // A wrong code is refused and leaves the message usable (the user corrects a typo).
    let wrong = crate::security::code(&secret, step + 20);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": signature, "totpCode": wrong}),
        "x",
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "invalid_totp"), "{body}");
    let code = crate::security::code(&secret, step + 1);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": signature, "totpCode": code}),
        "x",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let code = crate::security::code(&secret, step + 2);
    let (status, body) = wallet_login(
        &app,
        json!({"message": message, "signature": signature, "totpCode": code}),
        "x",
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wallet_challenge_expired"),
        "{body}"
    );

    // A frozen account is refused, like a password login.
    let ops = crate::kyc::operator(&app, "wallet-ops@example.com").await;
    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/users/{}/freeze", member.user_id),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = sign_in(&app, &wallet).await;
    assert_eq!((status, reason(&body)), (400, "account_frozen"), "{body}");
    app.stop().await;
}
