//! HTTP of the operator calls.

use poem_openapi::{OpenApi, Tags};

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: identity review.
    Admin,
}

/// The operator calls.
pub struct AdminApi;

#[OpenApi(tag = "ApiTags::Admin")]
impl AdminApi {}
