//! HTTP of the account calls: `POST /api/user/login`, `register`, `sendEmailCode`, `getInfo` and
//! `logout`, and the development outbox (`GET /api/dev/outbox`, development mode only, outside the
//! OpenAPI contract).

use std::sync::Arc;

use poem::{
    Request, handler,
    web::{Data, Query},
};
use poem_openapi::{Object, OpenApi, Tags};
use sea_orm::DatabaseConnection;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, QueryOrder, QuerySelect};
use serde::Deserialize;

use super::Satoken;
use super::codes::Purpose;
use super::service::{self, Login, Registration, parse_account};
use super::session::{self, Device};
use crate::clock::now_ms;
use crate::config::Config;
use crate::entity::{outbox_message, user};
use crate::http::{JsonBody, MemberResponse, PublicResponse};
use crate::i18n::Msg;
use crate::refusal::Refusal;
use crate::user::mailer::Mailer;
use crate::user::rate_limit::RateLimiter;

#[derive(Tags)]
enum ApiTags {
    /// Registration, login, sessions and the user record.
    User,
}

/// The account calls.
pub struct UserApi;

/// Login with an e-mail address or phone number.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct LoginRequest {
    /// E-mail address or phone number (`+` and country code).
    #[oai(validator(min_length = 1, max_length = 254))]
    pub account: String,
    /// Login password.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The 6-digit authenticator code; required when 2FA is on (`reason` `totp_required`).
    #[oai(validator(max_length = 16))]
    pub totp_code: Option<String>,
    /// The code sent to the account (`sendEmailCode` with `type: login`); required while the
    /// account has had too many failed sign-ins (`reason` `login_verification_required`).
    #[oai(validator(max_length = 16))]
    pub email_code: Option<String>,
    /// A name for this device in the device list; default: browser and system from the user agent.
    #[oai(validator(max_length = 100))]
    pub device_name: Option<String>,
}

/// A new session.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoginResult {
    /// The session token: send it as the `satoken` header (and keep it in `coin-access-token`).
    pub satoken: String,
    /// The user's id.
    pub user_id: i64,
    /// The device (session) id in the device list.
    pub device_id: i64,
    /// When the token stops working, Unix milliseconds (604800 s after login).
    pub expires_at: i64,
}

impl LoginResult {
    /// The answer to a successful login of any kind (password or wallet), once the login's
    /// follow-ups have run (the login log, the new-device notice).
    pub async fn after_login(
        db: &DatabaseConnection,
        new: crate::user::session::NewSession,
    ) -> Self {
        crate::notify::logins::after_login(db, &new.session).await;
        Self {
            satoken: new.token,
            user_id: new.session.user_id,
            device_id: new.session.id,
            expires_at: new.session.expires_at,
        }
    }
}

/// Registration with an e-mail address or phone number.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct RegisterRequest {
    /// E-mail address or phone number.
    #[oai(validator(min_length = 1, max_length = 254))]
    pub account: String,
    /// Password (rule A: at least 8 characters with an upper-case letter, a lower-case letter and a digit).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The password again.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub confirm_password: String,
    /// The code sent by `sendEmailCode` with type `register`.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub code: String,
    /// An invitation code (optional).
    #[oai(validator(max_length = 16))]
    pub invite_code: Option<String>,
}

/// The new account.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RegisterResult {
    /// The user's id.
    pub user_id: i64,
}

/// Which code a visitor may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum VisitorCodeType {
    /// For `register`.
    Register,
    /// For `backPwd` (password reset).
    Reset,
    /// For `login` while the account needs a code (`reason` `login_verification_required`).
    Login,
}

/// Asks for a verification code by e-mail (or SMS for a phone number).
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SendCodeRequest {
    /// E-mail address or phone number.
    #[oai(validator(min_length = 1, max_length = 254))]
    pub account: String,
    /// What the code is for.
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: VisitorCodeType,
}

/// Where a code went.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CodeSent {
    /// `email` or `sms`.
    pub channel: String,
    /// Seconds the code stays valid.
    pub expires_in_secs: i64,
    /// Seconds before another code may be asked for.
    pub resend_after_secs: i64,
}

/// The logged-in user (spec section 3).
#[derive(Debug, Object)]
#[oai(skip_serializing_if_is_none)]
pub struct UserInfo {
    /// The account.
    pub user: UserSummary,
    /// Avatar URL (a stock image until changed).
    pub avatar: String,
    /// 2 for merchants (the account centre then shows the merchant tab), 1 otherwise.
    pub is_merchant: i32,
    /// What is set up to protect the account.
    pub security: SecurityStatus,
    /// Identity level: 0 none, 1 basic passed, 2 advanced (real-name) passed.
    #[oai(rename = "kycLevel")]
    pub kyc_level: i32,
    /// The EIP-55 address of the Ethereum wallet linked for Sign-In with Ethereum
    /// (`wallet/link`); absent while none is linked.
    #[oai(rename = "walletAddress")]
    pub wallet_address: Option<String>,
}

/// The account fields of [`UserInfo`].
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct UserSummary {
    /// User id.
    pub user_id: i64,
    /// Login e-mail, if bound.
    pub email: Option<String>,
    /// Login phone, if bound.
    pub phone: Option<String>,
    /// The user's own invitation code.
    pub invite_code: String,
    /// `normal` or `vip`.
    pub user_type: String,
    /// Credit score as last computed (0 to 150; `GET /api/loan/credit` computes it now, with its
    /// factors; a new account starts at the model's base of 50).
    pub credit_score: i32,
    /// `user` or `operator`.
    pub role: String,
    /// Registration time, Unix milliseconds.
    pub created_at: i64,
}

/// The account's protections.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct SecurityStatus {
    /// A fund password is set.
    pub fund_password_set: bool,
    /// An authenticator (TOTP) is bound.
    pub totp_enabled: bool,
    /// An anti-phishing code is set.
    pub anti_code_set: bool,
    /// An e-mail address is bound.
    pub email_bound: bool,
    /// A phone number is bound.
    pub phone_bound: bool,
}

/// The device a request comes from.
pub fn device_of(req: &Request, name: Option<String>) -> Device {
    Device {
        user_agent: req.header("user-agent").unwrap_or_default().to_owned(),
        ip: client_ip(req),
        name,
    }
}

/// The client's IP address (the peer address; see docs/operations.md for proxies).
pub fn client_ip(req: &Request) -> String {
    req.remote_addr()
        .as_socket_addr()
        .map(|addr| addr.ip().to_string())
        .unwrap_or_default()
}

/// The `getInfo` view of `user`.
pub fn user_info(user: &user::Model) -> UserInfo {
    UserInfo {
        user: UserSummary {
            user_id: user.id,
            email: user.email.clone(),
            phone: user.phone.clone(),
            invite_code: user.invite_code.clone(),
            user_type: user.user_type.clone(),
            credit_score: user.credit_score,
            role: user.role.clone(),
            created_at: user.created_at,
        },
        avatar: user.avatar.clone(),
        is_merchant: user.is_merchant,
        security: SecurityStatus {
            fund_password_set: user.fund_password_hash.is_some(),
            totp_enabled: user.totp_enabled,
            anti_code_set: user.anti_code.is_some(),
            email_bound: user.email.is_some(),
            phone_bound: user.phone.is_some(),
        },
        kyc_level: user.kyc_level,
        wallet_address: user.wallet_address.clone(),
    }
}

#[OpenApi(tag = "ApiTags::User")]
impl UserApi {
    /// Logs in with an e-mail address or phone and the password (plus the authenticator code when
    /// 2FA is on); answers `data.satoken`. Failures never say whether the account exists.
    #[oai(path = "/api/user/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        req: &Request,
        body: JsonBody<LoginRequest>,
    ) -> PublicResponse<LoginResult> {
        let body = body.0;
        let result = async {
            let account = parse_account(&body.account, "account")?;
            let (new, _) = service::login(
                db,
                limiter,
                Login {
                    account,
                    password: body.password,
                    totp_code: body.totp_code,
                    email_code: body.email_code,
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

    /// Registers a new account with the code sent to it (`sendEmailCode`, type `register`).
    #[oai(
        path = "/api/user/register",
        method = "post",
        operation_id = "register"
    )]
    async fn register(
        &self,
        Data(db): Data<&DatabaseConnection>,
        body: JsonBody<RegisterRequest>,
    ) -> PublicResponse<RegisterResult> {
        let body = body.0;
        let result = async {
            let account = parse_account(&body.account, "account")?;
            let user = service::register(
                db,
                Registration {
                    account,
                    password: body.password,
                    confirm_password: body.confirm_password,
                    code: body.code,
                    invite_code: body.invite_code,
                },
            )
            .await?;
            Ok(RegisterResult { user_id: user.id })
        }
        .await;
        PublicResponse::of(result, Msg::Registered)
    }

    /// Sends a verification code for registration, password reset or a sign-in that needs one to an
    /// e-mail address (or by SMS to a phone). The answer is the same whether or not the account
    /// exists.
    #[oai(
        path = "/api/user/sendEmailCode",
        method = "post",
        operation_id = "sendEmailCode"
    )]
    async fn send_email_code(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(mailer): Data<&Arc<Mailer>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        req: &Request,
        body: JsonBody<SendCodeRequest>,
    ) -> PublicResponse<CodeSent> {
        let body = body.0;
        let result = async {
            let account = parse_account(&body.account, "account")?;
            let purpose = match body.kind {
                VisitorCodeType::Register => Purpose::Register,
                VisitorCodeType::Reset => Purpose::Reset,
                VisitorCodeType::Login => Purpose::Login,
            };
            service::send_code(
                db,
                mailer,
                limiter,
                &config.platform.site_name,
                &account,
                purpose,
                &client_ip(req),
                None,
            )
            .await?;
            Ok(code_sent(&account, limiter))
        }
        .await;
        PublicResponse::of(result, Msg::CodeSent)
    }

    /// The logged-in user (spec section 3: `user.userId`, `user.email`, `avatar`, `is_merchant`).
    /// The request's language becomes the language of the user's e-mails.
    #[oai(path = "/api/user/getInfo", method = "post", operation_id = "getInfo")]
    async fn get_info(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<UserInfo> {
        crate::notify::logins::follow_lang(db, &auth.0.user).await;
        MemberResponse::of(Ok(user_info(&auth.0.user)), Msg::Success)
    }

    /// Ends this session (the token answers 401 from now on).
    #[oai(path = "/api/user/logout", method = "post", operation_id = "logout")]
    async fn logout(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<bool> {
        let result = session::revoke(db, auth.0.id(), auth.0.session.id).await;
        MemberResponse::of(result, Msg::Success)
    }
}

/// What `sendEmailCode` answers for `account`.
pub fn code_sent(account: &service::Account, limiter: &super::rate_limit::RateLimiter) -> CodeSent {
    CodeSent {
        channel: account.channel().as_str().to_owned(),
        expires_in_secs: super::codes::CODE_TTL_MINUTES * 60,
        resend_after_secs: limiter.code_limits().per_target.window.as_secs() as i64,
    }
}

/// Query of the dev outbox.
#[derive(Debug, Deserialize)]
pub struct OutboxQuery {
    /// Only messages to this address or phone (normalised like a login account).
    pub to: Option<String>,
}

/// `GET /api/dev/outbox?to=…`: the newest 50 messages (development mode only; 404 otherwise).
#[handler]
pub async fn dev_outbox(
    Data(db): Data<&DatabaseConnection>,
    Data(mailer): Data<&Arc<Mailer>>,
    Query(query): Query<OutboxQuery>,
) -> poem::Result<poem::web::Json<serde_json::Value>> {
    if !mailer.has_outbox() {
        return Err(poem::Error::from_status(poem::http::StatusCode::NOT_FOUND));
    }
    let mut select = outbox_message::Entity::find()
        .order_by_desc(outbox_message::Column::Id)
        .limit(50);
    if let Some(to) = query.to.as_deref() {
        let to = parse_account(to, "to")
            .map(|account| account.as_str().to_owned())
            .unwrap_or_else(|_| to.trim().to_owned());
        select = select.filter(outbox_message::Column::Recipient.eq(to));
    }
    let messages = select.all(db).await.map_err(|e| {
        poem::Error::from_string(
            Refusal::internal(e).msg.key(),
            poem::http::StatusCode::INTERNAL_SERVER_ERROR,
        )
    })?;
    let now = now_ms();
    Ok(poem::web::Json(serde_json::json!({
        "code": 200,
        "msg": "ok",
        "data": messages.into_iter().map(|m| serde_json::json!({
            "id": m.id,
            "channel": m.channel,
            "to": m.recipient,
            "subject": m.subject,
            "body": m.body,
            "ageMs": now - m.created_at,
        })).collect::<Vec<_>>(),
    })))
}
