//! What every HTTP answer of the API shares: the `{code, msg, data}` envelope, the JSON body
//! extractor that names the offending field, and the middleware that gives every request its
//! language and turns every failure under `/api` into an envelope.

pub mod body;
pub mod envelope;
pub mod middleware;

pub use body::JsonBody;
pub use envelope::{ApiError, Envelope, ErrorDetail, ErrorEnvelope};

/// Implements `From<ApiError>` for an operation's response enum and defines its bad-request
/// handler (`#[oai(bad_request_handler = "…")]`). Each listed status goes to the named variant;
/// any other server error goes to `InternalError`, the rest to `BadRequest`.
macro_rules! api_error_response {
    ($response:ident, $handler:ident { $($status:ident => $variant:ident),* $(,)? }) => {
        impl From<$crate::http::ApiError> for $response {
            fn from(error: $crate::http::ApiError) -> Self {
                let envelope = poem_openapi::payload::Json(error.envelope());
                match error.status {
                    $(poem::http::StatusCode::$status => Self::$variant(envelope),)*
                    status if status.is_server_error() => Self::InternalError(envelope),
                    _ => Self::BadRequest(envelope),
                }
            }
        }

        fn $handler(error: poem::Error) -> $response {
            $crate::http::ApiError::from_poem(&error).into()
        }
    };
}

pub(crate) use api_error_response;

mod responses;
pub use responses::{LookupResponse, MemberResponse, PublicResponse};

/// Checks the `{head}` segment of a member-area path (`/api/{head}/coin/…`) against the configured
/// `platform.api_head`; another value is an unknown path (404).
pub fn check_head(head: &str, config: &crate::config::Config) -> Result<(), ApiError> {
    if head == config.platform.api_head {
        Ok(())
    } else {
        Err(ApiError::new(
            poem::http::StatusCode::NOT_FOUND,
            crate::i18n::Msg::NotFound,
        ))
    }
}
