//! HTTP of the wallet calls: the sign-in challenge and the sign-in itself under `/api/user/wallet/`,
//! and the member's challenge, link and unlink under `/api/{head}/coin/member/wallet/`. Each
//! handler reads the request, calls one rule of [`super::service`] and wraps the answer.

use std::sync::Arc;

use poem::{Request, web::Data};
use poem_openapi::{Object, OpenApi, Tags, param::Path};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::service::{self, Purpose, Signed, Site, WalletLogin};
use crate::clock::Clock;
use crate::config::Config;
use crate::entity::wallet_challenge;
use crate::http::{JsonBody, MemberResponse, PublicResponse, check_head};
use crate::i18n::Msg;
use crate::user::Satoken;
use crate::user::api::{LoginResult, UserInfo, device_of, user_info};
use crate::user::rate_limit::RateLimiter;

#[derive(Tags)]
enum ApiTags {
    /// Sign-In with Ethereum: linking a wallet and signing in with it.
    Wallet,
}

/// The wallet calls.
pub struct WalletApi;

/// Asks for a message for the wallet at `address` to sign.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WalletChallengeRequest {
    /// The wallet's address (`0x` and 40 hex digits; mixed case must be its EIP-55 checksum).
    #[oai(validator(max_length = 64))]
    pub address: String,
}

/// A message to sign with `personal_sign`, once, before `expiresAt`.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletChallenge {
    /// The EIP-4361 message, to be signed exactly as given.
    pub message: String,
    /// Its nonce.
    pub nonce: String,
    /// The address it names, EIP-55 checksummed.
    pub address: String,
    /// When it stops being accepted, Unix milliseconds (5 minutes after it was issued).
    pub expires_at: i64,
}

/// A signed challenge of a member linking the wallet.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WalletLinkRequest {
    /// The message, exactly as the challenge gave it.
    #[oai(validator(min_length = 1, max_length = 2000))]
    pub message: String,
    /// The wallet's `personal_sign` signature of it (`0x` and 130 hex digits).
    #[oai(validator(min_length = 1, max_length = 200))]
    pub signature: String,
}

/// A signed sign-in challenge.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct WalletLoginRequest {
    /// The message, exactly as the challenge gave it.
    #[oai(validator(min_length = 1, max_length = 2000))]
    pub message: String,
    /// The wallet's `personal_sign` signature of it (`0x` and 130 hex digits).
    #[oai(validator(min_length = 1, max_length = 200))]
    pub signature: String,
    /// The 6-digit authenticator code; required when the account has 2FA on (`reason`
    /// `totp_required`: send the same message and signature again with it).
    #[oai(validator(max_length = 16))]
    pub totp_code: Option<String>,
    /// A name for this device in the device list; default: browser and system from the user agent.
    #[oai(validator(max_length = 100))]
    pub device_name: Option<String>,
}

/// The site the messages name: the configured public origin, else the request's own.
fn site_of(req: &Request, config: &Config) -> Site {
    let uri = if config.security.wallet_origin.is_empty() {
        format!("http://{}", req.header("host").unwrap_or("localhost"))
    } else {
        config.security.wallet_origin.clone()
    };
    let domain = uri
        .split_once("://")
        .map_or(uri.as_str(), |(_, rest)| rest)
        .to_owned();
    Site {
        domain,
        uri,
        name: config.platform.site_name.clone(),
    }
}

fn challenge_view(challenge: wallet_challenge::Model) -> WalletChallenge {
    WalletChallenge {
        message: challenge.message,
        nonce: challenge.nonce,
        address: challenge.address,
        expires_at: challenge.expires_at,
    }
}

#[OpenApi(tag = "ApiTags::Wallet")]
impl WalletApi {
    /// A sign-in message for the wallet at `address` (EIP-4361: this site's domain and URI,
    /// version 1, chain id 1, a one-time nonce, issued-at and a 5-minute expiration). Sign it
    /// with `personal_sign` and send it to `wallet/login`.
    #[oai(
        path = "/api/user/wallet/challenge",
        method = "post",
        operation_id = "walletLoginChallenge"
    )]
    async fn login_challenge(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(clock): Data<&Clock>,
        req: &Request,
        body: JsonBody<WalletChallengeRequest>,
    ) -> PublicResponse<WalletChallenge> {
        let site = site_of(req, config);
        let result = service::issue(
            db,
            clock.now_ms(),
            &site,
            &body.0.address,
            Purpose::Login,
            None,
        )
        .await
        .map(challenge_view);
        PublicResponse::of(result, Msg::Success)
    }

    /// Signs in with a linked wallet: the signed sign-in message, checked (issued here, unused,
    /// unexpired, unchanged, signed by the address it names), starts the same session as a
    /// password login (`data.satoken`), with the same rules: the authenticator code when 2FA is on
    /// (`totp_required`), a frozen account refused (`account_frozen`), the login log and the new-device notice.
    /// `wallet_not_linked` when no account has the wallet.
    #[oai(
        path = "/api/user/wallet/login",
        method = "post",
        operation_id = "walletLogin"
    )]
    async fn login(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        Data(clock): Data<&Clock>,
        req: &Request,
        body: JsonBody<WalletLoginRequest>,
    ) -> PublicResponse<LoginResult> {
        let body = body.0;
        let result = async {
            let (new, _) = service::login(
                db,
                limiter,
                clock.now_ms(),
                WalletLogin {
                    signed: Signed {
                        message: body.message,
                        signature: body.signature,
                    },
                    totp_code: body.totp_code,
                    device: device_of(req, body.device_name),
                },
                config.security.session_ttl_secs,
            )
            .await?;
            Ok(LoginResult::after_login(db, new).await)
        }
        .await;
        PublicResponse::of(result, Msg::LoggedIn)
    }

    /// A message for the logged-in user's wallet at `address` to sign, to link it to the account
    /// (`wallet/link`); like the sign-in message, once and within 5 minutes. Needs a recent
    /// re-authentication (asked here, before the wallet signs).
    #[oai(
        path = "/api/:head/coin/member/wallet/challenge",
        method = "post",
        operation_id = "walletLinkChallenge"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn link_challenge(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(clock): Data<&Clock>,
        req: &Request,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<WalletChallengeRequest>,
    ) -> MemberResponse<WalletChallenge> {
        let result = async {
            check_head(&head, config)?;
            let site = site_of(req, config);
            service::issue_link(db, clock.now_ms(), &site, &body.0.address, &auth.0)
                .await
                .map(challenge_view)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Links the wallet that signed the link message to the account (replacing a linked one),
    /// e-mails the account a security notice naming it, and answers the user record with its
    /// `walletAddress`. Needs a recent re-authentication;
    /// `wallet_taken` (409) when another account has the wallet.
    #[oai(
        path = "/api/:head/coin/member/wallet/link",
        method = "post",
        operation_id = "walletLink"
    )]
    async fn link(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(clock): Data<&Clock>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<WalletLinkRequest>,
    ) -> MemberResponse<UserInfo> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let user = service::link(
                db,
                clock.now_ms(),
                &auth.0,
                &Signed {
                    message: body.message,
                    signature: body.signature,
                },
            )
            .await?;
            Ok(user_info(&user))
        }
        .await;
        MemberResponse::of(result, Msg::WalletLinked)
    }

    /// Unlinks the account's wallet (signing in with it stops working), e-mails a security notice
    /// naming it, and answers the user record. Needs a recent re-authentication (password and second factor), like every security
    /// change.
    #[oai(
        path = "/api/:head/coin/member/wallet/unlink",
        method = "post",
        operation_id = "walletUnlink"
    )]
    async fn unlink(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(clock): Data<&Clock>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<UserInfo> {
        let result = async {
            check_head(&head, config)?;
            let user = service::unlink(db, clock.now_ms(), &auth.0).await?;
            Ok(user_info(&user))
        }
        .await;
        MemberResponse::of(result, Msg::WalletUnlinked)
    }
}
