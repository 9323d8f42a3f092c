//! HTTP of the security settings: the member-area calls under `/api/{head}/coin/` (codes,
//! contact binding, login log, devices, re-authentication, authenticator, fund password,
//! anti-phishing code, API keys) and the password calls under `/api/user/` and
//! `/api/blade-user/`. Each handler reads the request, calls one rule of the module and wraps the
//! answer; the rules live in [`super::service`], [`super::passwords`], [`super::api_keys`] and
//! [`super::reauth`].

use std::sync::Arc;

use poem::{Request, web::Data};
use poem_openapi::{
    OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::DatabaseConnection;

use super::models::{
    AntiCodeRequest, ApiKeyView, BindAccountRequest, ChangePasswordRequest, CodePasswordRequest,
    ContactType, CreateApiKeyRequest, CreatedApiKey, FundPasswordRequest, LoginDevice,
    LoginLogPage, LoginLogRecord, MemberCodePurpose, ReauthRequest, ReauthResult,
    ResetPasswordRequest, TotpSetupView, UpdateDeviceRequest,
};
use super::passwords::{self, FundPasswordForm, NewPassword};
use super::second_factor::Codes;
use super::service::{self, MemberCode};
use super::{api_keys, reauth};
use crate::config::Config;
use crate::http::{JsonBody, MemberResponse, PublicResponse, check_head};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::api::{CodeSent, UserInfo, client_ip, code_sent, user_info};
use crate::user::mailer::Channel;
use crate::user::mailer::Mailer;
use crate::user::rate_limit::RateLimiter;
use crate::user::service::parse_account;
use crate::user::{CurrentUser, Satoken};

#[derive(Tags)]
enum ApiTags {
    /// Passwords, devices, 2FA, anti-phishing code and API keys.
    Security,
}

/// The security-settings calls.
pub struct SecurityApi;

#[OpenApi(tag = "ApiTags::Security")]
impl SecurityApi {
    /// Confirms the login password and the second factor on this session: the current
    /// authenticator code when 2FA is on (`totpCode`), else the security code sent by
    /// `sendMemberEmailCode` / `sendMemberSmsCode` with purpose `security` (`securityCode`).
    /// Sensitive changes (binding a contact, 2FA, fund password, anti-phishing code, API keys) are
    /// allowed for 5 minutes after. Five wrong tries in 15 minutes block further tries for a while
    /// (429).
    #[oai(
        path = "/api/:head/coin/member/reauth",
        method = "post",
        operation_id = "reauth"
    )]
    async fn reauth(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<ReauthRequest>,
    ) -> MemberResponse<ReauthResult> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let valid_until = reauth::confirm(
                db,
                limiter,
                &auth.0,
                reauth::Proof {
                    password: body.password,
                    codes: Codes {
                        totp_code: body.totp_code,
                        security_code: body.security_code,
                    },
                },
            )
            .await?;
            Ok(ReauthResult { valid_until })
        }
        .await;
        MemberResponse::of(result, Msg::IdentityConfirmed)
    }

    /// Sends a code by e-mail: purpose `bind` to the new address in `email` (which no other
    /// account may have), purpose `security` to the user's bound address (`email` is ignored).
    /// E-mails carry the user's anti-phishing code.
    #[oai(
        path = "/api/:head/coin/open/send/email",
        method = "get",
        operation_id = "sendMemberEmailCode"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn send_email_code(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(mailer): Data<&Arc<Mailer>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        req: &Request,
        head: Path<String>,
        auth: Satoken,
        /// `bind` or `security`.
        purpose: Query<MemberCodePurpose>,
        /// The new e-mail address (purpose `bind`).
        #[oai(validator(max_length = 254))]
        email: Query<Option<String>>,
    ) -> MemberResponse<CodeSent> {
        let result = async {
            check_head(&head, config)?;
            let ip = client_ip(req);
            let sender = member_code(db, mailer, limiter, config, &ip);
            let address = email.0.as_deref();
            send_member_code(
                sender,
                limiter,
                &auth.0.user,
                purpose.0,
                address,
                Channel::Email,
            )
            .await
        }
        .await;
        MemberResponse::of(result, Msg::CodeSent)
    }

    /// Sends a code by SMS: purpose `bind` to the new number in `phone` (which no other account
    /// may have), purpose `security` to the user's bound number (`phone` is ignored).
    #[oai(
        path = "/api/:head/coin/open/send/sms",
        method = "get",
        operation_id = "sendMemberSmsCode"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn send_sms_code(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(mailer): Data<&Arc<Mailer>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        req: &Request,
        head: Path<String>,
        auth: Satoken,
        /// `bind` or `security`.
        purpose: Query<MemberCodePurpose>,
        /// The new phone number with `+` and country code (purpose `bind`).
        #[oai(validator(max_length = 32))]
        phone: Query<Option<String>>,
    ) -> MemberResponse<CodeSent> {
        let result = async {
            check_head(&head, config)?;
            let ip = client_ip(req);
            let sender = member_code(db, mailer, limiter, config, &ip);
            let address = phone.0.as_deref();
            send_member_code(
                sender,
                limiter,
                &auth.0.user,
                purpose.0,
                address,
                Channel::Sms,
            )
            .await
        }
        .await;
        MemberResponse::of(result, Msg::CodeSent)
    }

    /// Binds an e-mail address or phone (or changes the bound one) with the code sent to it by
    /// purpose `bind`; needs a recent re-authentication. Answers the updated user info.
    #[oai(
        path = "/api/:head/coin/member/accountVerificationBinding",
        method = "post",
        operation_id = "bindAccount"
    )]
    async fn bind_account(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<BindAccountRequest>,
    ) -> MemberResponse<UserInfo> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let account = match body.kind {
                ContactType::Email => service::parse_email(&body.account, "account")?,
                ContactType::Phone => service::parse_phone(&body.account, "account")?,
            };
            let user = service::bind_contact(db, &auth.0, &account, &body.code).await?;
            Ok(user_info(&user))
        }
        .await;
        MemberResponse::of(result, Msg::Bound)
    }

    /// The user's login attempts, newest first.
    #[oai(
        path = "/api/:head/coin/member/getLoginLog",
        method = "get",
        operation_id = "getLoginLog"
    )]
    async fn get_login_log(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Rows per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<LoginLogPage> {
        let result = async {
            check_head(&head, config)?;
            let Paging { page, page_size } = Paging::new(page.0, page_size.0);
            let found = service::login_log(db, auth.0.id(), page, page_size).await?;
            Ok(LoginLogPage {
                total: found.total,
                page,
                page_size,
                records: found
                    .records
                    .into_iter()
                    .map(LoginLogRecord::from)
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's logged-in devices (live sessions), most recently used first; `current` marks
    /// the one making the request.
    #[oai(
        path = "/api/:head/coin/member/getLoginDevice",
        method = "get",
        operation_id = "getLoginDevice"
    )]
    async fn get_login_device(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<Vec<LoginDevice>> {
        let result = async {
            check_head(&head, config)?;
            let current = auth.0.session.id;
            Ok(service::devices(db, auth.0.id())
                .await?
                .into_iter()
                .map(|session| LoginDevice::of(session, current))
                .collect())
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Logs a device out (its token answers 401 from now on); the current device may be
    /// removed too (that is a logout). 404 for a device that is not the user's.
    #[oai(
        path = "/api/:head/coin/member/deleteDevice/:id",
        method = "post",
        operation_id = "deleteDevice"
    )]
    async fn delete_device(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// Device (session) id from `getLoginDevice`.
        id: Path<i64>,
    ) -> MemberResponse<bool> {
        let result = async {
            check_head(&head, config)?;
            service::revoke_device(db, auth.0.id(), id.0).await?;
            Ok(true)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Renames one of the user's devices; 404 for a device that is not the user's.
    #[oai(
        path = "/api/:head/coin/member/updateDevice",
        method = "post",
        operation_id = "updateDevice"
    )]
    async fn update_device(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<UpdateDeviceRequest>,
    ) -> MemberResponse<bool> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            service::rename_device(db, auth.0.id(), body.id, &body.device_name).await?;
            Ok(true)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Starts binding an authenticator (`x` is `bind`): a new secret with its `otpauth://` URI
    /// and QR code. 2FA stays off until `googleVerificationBindingOrReset` confirms a first code.
    /// Needs a recent re-authentication.
    #[oai(
        path = "/api/:head/coin/member/getGoogleVerification/:x",
        method = "get",
        operation_id = "getGoogleVerification"
    )]
    async fn get_google_verification(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// `bind`.
        x: Path<String>,
    ) -> MemberResponse<TotpSetupView> {
        let result = async {
            check_head(&head, config)?;
            if x.0 != "bind" {
                return Err(Refusal::new(RefusalKind::NotFound, Msg::NotFound));
            }
            let setup = service::start_totp(db, &auth.0, &config.platform.site_name).await?;
            Ok(TotpSetupView {
                qr_svg_data_url: format!(
                    "data:image/svg+xml;base64,{}",
                    data_encoding::BASE64.encode(setup.qr_svg.as_bytes())
                ),
                secret: setup.secret,
                otpauth_uri: setup.otpauth_uri,
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Turns 2FA on (`y` = 2: `x` is the first code of the new secret) or off (`y` = 1: `x` is a
    /// current code). A code is accepted once. Needs a recent re-authentication.
    #[oai(
        path = "/api/:head/coin/member/googleVerificationBindingOrReset/:x/:y",
        method = "get",
        operation_id = "googleVerificationBindingOrReset"
    )]
    async fn google_verification_binding_or_reset(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// The 6-digit authenticator code.
        #[oai(validator(max_length = 16))]
        x: Path<String>,
        /// 2: bind, 1: reset (unbind).
        y: Path<i32>,
    ) -> MemberResponse<bool> {
        let result = async {
            check_head(&head, config)?;
            match y.0 {
                2 => service::bind_totp(db, &auth.0, &x.0).await,
                1 => service::unbind_totp(db, &auth.0, &x.0).await,
                _ => Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("y")),
            }
        }
        .await;
        let msg = if y.0 == 1 {
            Msg::TotpUnbound
        } else {
            Msg::Bound
        };
        MemberResponse::of(result.map(|()| true), msg)
    }

    /// Sets the fund (trade / withdrawal) password, or changes it with the current one (rule B).
    /// Needs a recent re-authentication.
    #[oai(
        path = "/api/:head/coin/member/tradePwd",
        method = "post",
        operation_id = "setTradePassword"
    )]
    async fn set_trade_password(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<FundPasswordRequest>,
    ) -> MemberResponse<bool> {
        let result = match check_head(&head, config) {
            Ok(()) => fund_password(db, limiter, &auth.0, body.0).await,
            Err(error) => Err(error),
        };
        MemberResponse::of(result, Msg::FundPasswordSaved)
    }

    /// The same as `setTradePassword`, at the path the seed's account pages use.
    #[oai(
        path = "/api/user/tardPwdSet",
        method = "post",
        operation_id = "tardPwdSet"
    )]
    async fn tard_pwd_set(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        body: JsonBody<FundPasswordRequest>,
    ) -> MemberResponse<bool> {
        let result = fund_password(db, limiter, &auth.0, body.0).await;
        MemberResponse::of(result, Msg::FundPasswordSaved)
    }

    /// Sets the anti-phishing code (4 to 20 letters or digits) that every e-mail of the platform
    /// shows from now on. Needs a recent re-authentication.
    #[oai(
        path = "/api/:head/coin/member/antiCode",
        method = "post",
        operation_id = "setAntiCode"
    )]
    async fn set_anti_code(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<AntiCodeRequest>,
    ) -> MemberResponse<bool> {
        let result = async {
            check_head(&head, config)?;
            service::set_anti_code(db, &auth.0, &body.0.anti_code).await?;
            Ok(true)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's API keys, newest first (never their secrets).
    #[oai(
        path = "/api/:head/coin/member/apis",
        method = "get",
        operation_id = "listApiKeys"
    )]
    async fn list_api_keys(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<Vec<ApiKeyView>> {
        let result = async {
            check_head(&head, config)?;
            Ok(api_keys::list(db, auth.0.id())
                .await?
                .into_iter()
                .map(ApiKeyView::from)
                .collect())
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Creates an API key (at most 20 per user); the answer shows its secret this once. Needs a
    /// recent re-authentication.
    #[oai(
        path = "/api/:head/coin/member/api",
        method = "post",
        operation_id = "createApiKey"
    )]
    async fn create_api_key(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<CreateApiKeyRequest>,
    ) -> MemberResponse<CreatedApiKey> {
        let body = body.0;
        let result = async {
            check_head(&head, config)?;
            let created = api_keys::create(
                db,
                &auth.0,
                api_keys::NewApiKey {
                    label: body.label,
                    permissions: body.permissions,
                    ip_whitelist: body.ip_whitelist.unwrap_or_default(),
                },
            )
            .await?;
            Ok(CreatedApiKey::from(created))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Deletes one of the user's API keys; 404 for a key that is not the user's.
    #[oai(
        path = "/api/:head/coin/member/api/del",
        method = "get",
        operation_id = "deleteApiKey"
    )]
    async fn delete_api_key(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// Key id.
        id: Query<i64>,
    ) -> MemberResponse<bool> {
        let result = async {
            check_head(&head, config)?;
            api_keys::delete(db, auth.0.id(), id.0).await?;
            Ok(true)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Resets a forgotten login password with the code sent by `sendEmailCode` (type `reset`)
    /// and logs the account out everywhere. The seed sends this as a query; it is a JSON body
    /// here because passwords must never be part of a URL (URLs end up in logs and histories).
    /// An unknown account fails exactly like a wrong code.
    #[oai(path = "/api/user/backPwd", method = "post", operation_id = "backPwd")]
    async fn back_pwd(
        &self,
        Data(db): Data<&DatabaseConnection>,
        body: JsonBody<ResetPasswordRequest>,
    ) -> PublicResponse<bool> {
        let body = body.0;
        let result = async {
            let account = parse_account(&body.account, "account")?;
            passwords::reset(
                db,
                &account,
                &body.code,
                NewPassword {
                    password: body.password,
                    confirm_password: body.confirm_password,
                },
            )
            .await?;
            Ok(true)
        }
        .await;
        PublicResponse::of(result, Msg::PasswordChanged)
    }

    /// Changes the login password with the current one (rule A, different from it); needs a recent
    /// re-authentication (`reauth_required`) like every security change. The user's other devices
    /// are logged out, this one stays.
    #[oai(
        path = "/api/user/updatePwd",
        method = "post",
        operation_id = "updatePwd"
    )]
    async fn update_pwd(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        body: JsonBody<ChangePasswordRequest>,
    ) -> MemberResponse<bool> {
        let result = change_password(db, limiter, &auth.0, body.0).await;
        MemberResponse::of(result, Msg::PasswordChanged)
    }

    /// The same as `updatePwd`, at the path the seed's profile page uses.
    #[oai(
        path = "/api/blade-user/update-password",
        method = "post",
        operation_id = "bladeUpdatePassword"
    )]
    async fn blade_update_password(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        body: JsonBody<ChangePasswordRequest>,
    ) -> MemberResponse<bool> {
        let result = change_password(db, limiter, &auth.0, body.0).await;
        MemberResponse::of(result, Msg::PasswordChanged)
    }

    /// Changes the login password with a code sent to the bound e-mail address or phone
    /// (`open/send/email` or `open/send/sms`, purpose `security`) instead of the old password,
    /// plus the authenticator code once 2FA is on (`totp_required`, `invalid_totp`); the user's
    /// other devices are logged out, this one stays.
    #[oai(
        path = "/api/user/updateUserLoginPwd",
        method = "post",
        operation_id = "updateUserLoginPwd"
    )]
    async fn update_user_login_pwd(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        body: JsonBody<CodePasswordRequest>,
    ) -> MemberResponse<bool> {
        let body = body.0;
        let result = passwords::change_with_code(
            db,
            limiter,
            &auth.0,
            &body.code,
            body.totp_code,
            NewPassword {
                password: body.password,
                confirm_password: body.confirm_password,
            },
        )
        .await
        .map(|()| true);
        MemberResponse::of(result, Msg::PasswordChanged)
    }
}

/// The sender of a member's codes from `ip`.
fn member_code<'a>(
    db: &'a DatabaseConnection,
    mailer: &'a Mailer,
    limiter: &'a RateLimiter,
    config: &'a Config,
    ip: &'a str,
) -> MemberCode<'a> {
    MemberCode {
        db,
        mailer,
        limiter,
        site: &config.platform.site_name,
        ip,
    }
}

/// What the e-mail and SMS member code calls share: for purpose `bind` the code goes to the new
/// `address` on `channel` (the query field `email` or `phone`), which no other account may have;
/// for `security` to the user's bound one.
async fn send_member_code(
    sender: MemberCode<'_>,
    limiter: &RateLimiter,
    user: &crate::entity::user::Model,
    purpose: MemberCodePurpose,
    address: Option<&str>,
    channel: Channel,
) -> Result<CodeSent, Refusal> {
    let account = match purpose {
        MemberCodePurpose::Bind => {
            let raw = address.unwrap_or_default();
            let (account, field) = match channel {
                Channel::Email => (service::parse_email(raw, "email")?, "email"),
                Channel::Sms => (service::parse_phone(raw, "phone")?, "phone"),
            };
            sender.send_bind(user, &account, field).await?;
            account
        }
        MemberCodePurpose::Security => sender.send_security(user, channel).await?,
    };
    Ok(code_sent(&account, limiter))
}

/// Sets or changes the fund password (`setTradePassword`, `tardPwdSet`).
async fn fund_password(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    current: &CurrentUser,
    body: FundPasswordRequest,
) -> Result<bool, Refusal> {
    passwords::set_fund_password(
        db,
        limiter,
        current,
        FundPasswordForm {
            password: body.password,
            confirm_password: body.confirm_password,
            old_password: body.old_password,
        },
    )
    .await?;
    Ok(true)
}

/// Changes the login password with the old one (`updatePwd`, `bladeUpdatePassword`).
async fn change_password(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    current: &CurrentUser,
    body: ChangePasswordRequest,
) -> Result<bool, Refusal> {
    passwords::change_with_old(
        db,
        limiter,
        current,
        &body.old_password,
        NewPassword {
            password: body.password,
            confirm_password: body.confirm_password,
        },
    )
    .await?;
    Ok(true)
}
