//! HTTP of the security settings.

use poem_openapi::{OpenApi, Tags};

#[derive(Tags)]
enum ApiTags {
    /// Passwords, devices, 2FA, anti-phishing code and API keys.
    Security,
}

/// The security-settings calls.
pub struct SecurityApi;

#[OpenApi(tag = "ApiTags::Security")]
impl SecurityApi {}
