//! HTTP of identity verification, bank card, uploads and countries.

use poem_openapi::{OpenApi, Tags};

#[derive(Tags)]
enum ApiTags {
    /// Identity verification, bank card, uploads and countries.
    Kyc,
}

/// The identity and file calls.
pub struct KycApi;

#[OpenApi(tag = "ApiTags::Kyc")]
impl KycApi {}
