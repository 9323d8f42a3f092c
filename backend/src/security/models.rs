//! The request bodies and answer shapes of the security-settings calls, as the OpenAPI document
//! (and the webapp's generated hooks) show them.

use poem_openapi::{Enum, Object};
use serde::Deserialize;

use super::api_keys;
use crate::entity::{api_key, login_log, user_session};

/// Confirms the login password and the second factor for sensitive changes on this session.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct ReauthRequest {
    /// The login password (required).
    #[oai(validator(max_length = 128))]
    pub password: Option<String>,
    /// The current 6-digit authenticator code: required when 2FA is on.
    #[oai(validator(max_length = 16))]
    pub totp_code: Option<String>,
    /// The 6-digit security code sent to the bound e-mail address or phone: required when 2FA is
    /// off.
    #[oai(validator(max_length = 16))]
    pub security_code: Option<String>,
}

/// A confirmed session.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ReauthResult {
    /// Until when sensitive changes are allowed on this session, Unix milliseconds (5 minutes).
    pub valid_until: i64,
}

/// What a member's code is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MemberCodePurpose {
    /// Binding a new (or changed) e-mail address or phone: the code goes to the new one.
    Bind,
    /// Confirming a change (`updateUserLoginPwd`): the code goes to the bound one.
    Security,
}

/// Which contact to bind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum ContactType {
    /// An e-mail address.
    Email,
    /// A phone number.
    Phone,
}

/// Binds (or changes) the e-mail address or phone with the code sent to it.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BindAccountRequest {
    /// `email` or `phone`.
    #[oai(rename = "type")]
    #[serde(rename = "type")]
    pub kind: ContactType,
    /// The new e-mail address or phone number (`+` and country code).
    #[oai(validator(min_length = 1, max_length = 254))]
    pub account: String,
    /// The code sent to it by `open/send/email` or `open/send/sms` with purpose `bind`.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub code: String,
}

/// One login attempt.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoginLogRecord {
    /// Row id.
    pub id: i64,
    /// IP address.
    pub ip: String,
    /// User agent.
    pub user_agent: String,
    /// Whether the login succeeded.
    pub success: bool,
    /// When, Unix milliseconds.
    pub created_at: i64,
}

impl From<login_log::Model> for LoginLogRecord {
    fn from(row: login_log::Model) -> Self {
        Self {
            id: row.id,
            ip: row.ip,
            user_agent: row.user_agent,
            success: row.success,
            created_at: row.created_at,
        }
    }
}

/// A page of the login log.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoginLogPage {
    /// Attempts in all.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Rows per page.
    pub page_size: u64,
    /// The attempts, newest first.
    pub records: Vec<LoginLogRecord>,
}

/// A logged-in device (session).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct LoginDevice {
    /// Device (session) id, for `deleteDevice` and `updateDevice`.
    pub id: i64,
    /// The device's name.
    pub device_name: String,
    /// IP address at login.
    pub ip: String,
    /// User agent at login.
    pub user_agent: String,
    /// Login time, Unix milliseconds.
    pub created_at: i64,
    /// Last request, Unix milliseconds (refreshed at most once a minute).
    pub last_seen_at: i64,
    /// When the session ends, Unix milliseconds.
    pub expires_at: i64,
    /// Whether this is the device making the request.
    pub current: bool,
}

impl LoginDevice {
    /// The view of `session`; `current` is the id of the requesting session.
    pub fn of(session: user_session::Model, current: i64) -> Self {
        Self {
            current: session.id == current,
            id: session.id,
            device_name: session.device_name,
            ip: session.ip,
            user_agent: session.user_agent,
            created_at: session.created_at,
            last_seen_at: session.last_seen_at,
            expires_at: session.expires_at,
        }
    }
}

/// Renames a device.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateDeviceRequest {
    /// Device (session) id.
    pub id: i64,
    /// The new name, 1 to 100 characters after trimming.
    #[oai(validator(max_length = 100))]
    pub device_name: String,
}

/// A new authenticator secret to scan.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct TotpSetupView {
    /// Base32 secret, for typing into the authenticator app.
    pub secret: String,
    /// The `otpauth://totp/…` URI.
    pub otpauth_uri: String,
    /// The URI's QR code as `data:image/svg+xml;base64,…`, for an `<img src>`.
    pub qr_svg_data_url: String,
}

/// Sets or changes the fund (trade / withdrawal) password.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct FundPasswordRequest {
    /// The new fund password (rule B: 6 to 20 letters, digits and ASCII punctuation).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The new fund password again.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub confirm_password: String,
    /// The current fund password: absent the first time, required once one is set.
    #[oai(validator(max_length = 128))]
    pub old_password: Option<String>,
}

/// Sets the anti-phishing code.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AntiCodeRequest {
    /// 4 to 20 ASCII letters or digits; every e-mail of the platform shows it from now on.
    #[oai(validator(max_length = 64))]
    pub anti_code: String,
}

/// An API key as listed (never its secret).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ApiKeyView {
    /// Key id.
    pub id: i64,
    /// The label.
    pub label: String,
    /// The public access key.
    pub access_key: String,
    /// `read`, `trade`, `withdraw`.
    pub permissions: Vec<String>,
    /// Allowed IP addresses; empty: any.
    pub ip_whitelist: Vec<String>,
    /// Creation time, Unix milliseconds.
    pub created_at: i64,
}

impl From<api_key::Model> for ApiKeyView {
    fn from(key: api_key::Model) -> Self {
        Self {
            permissions: api_keys::split_list(&key.permissions),
            ip_whitelist: api_keys::split_list(&key.ip_whitelist),
            id: key.id,
            label: key.label,
            access_key: key.access_key,
            created_at: key.created_at,
        }
    }
}

/// Creates an API key.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct CreateApiKeyRequest {
    /// A label, 1 to 64 characters after trimming.
    #[oai(validator(max_length = 64))]
    pub label: String,
    /// At least one of `read`, `trade`, `withdraw`.
    #[oai(validator(max_items = 16))]
    pub permissions: Vec<String>,
    /// IPv4 or IPv6 addresses the key may be used from, at most 20; absent or empty: any.
    #[oai(validator(max_items = 64))]
    pub ip_whitelist: Option<Vec<String>>,
}

/// A new API key; the secret is shown this once.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CreatedApiKey {
    /// Key id.
    pub id: i64,
    /// The public access key.
    pub access_key: String,
    /// The secret: store it now, it cannot be shown again.
    pub secret: String,
}

impl From<api_keys::CreatedApiKey> for CreatedApiKey {
    fn from(key: api_keys::CreatedApiKey) -> Self {
        Self {
            id: key.id,
            access_key: key.access_key,
            secret: key.secret,
        }
    }
}

/// Resets a forgotten login password with a code.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResetPasswordRequest {
    /// E-mail address or phone number of the account.
    #[oai(validator(min_length = 1, max_length = 254))]
    pub account: String,
    /// The code sent by `sendEmailCode` with type `reset`.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub code: String,
    /// The new login password (rule A).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The new password again.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub confirm_password: String,
}

/// Changes the login password with the old one.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ChangePasswordRequest {
    /// The current login password.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub old_password: String,
    /// The new login password (rule A, different from the old one).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The new password again.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub confirm_password: String,
}

/// Changes the login password with a security code instead of the old password.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodePasswordRequest {
    /// The code sent by `open/send/email` or `open/send/sms` with purpose `security`.
    #[oai(validator(min_length = 1, max_length = 16))]
    pub code: String,
    /// The current 6-digit authenticator code: required when 2FA is on.
    #[oai(validator(max_length = 16))]
    pub totp_code: Option<String>,
    /// The new login password (rule A, different from the old one).
    #[oai(validator(min_length = 1, max_length = 128))]
    pub password: String,
    /// The new password again.
    #[oai(validator(min_length = 1, max_length = 128))]
    pub confirm_password: String,
}
