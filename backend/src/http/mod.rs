//! What every HTTP answer of the API shares: the `{code, msg, data}` envelope, the JSON body
//! extractor that names the offending field, the request strings of a documented form
//! ([`form_text`]), the middleware that gives every request its
//! language and turns every failure under `/api` into an envelope, the security headers of
//! every answer ([`headers`]), the member sockets' close codes and ping ([`socket`]), and the webapp's
//! files, compressed and cached ([`static_files`]).

pub mod body;
pub mod envelope;
pub mod form_text;
pub mod headers;
pub mod middleware;
pub mod origin;
pub mod socket;
pub mod static_files;

pub use body::JsonBody;
pub use envelope::{
    Envelope, ErrorDetail, ErrorEnvelope, envelope_of, refusal_from_poem, status_of,
};
pub use form_text::{DecimalText, IntervalText, WholeText};

/// Implements `From<Refusal>` for an operation's response enum and defines its bad-request
/// handler (`#[oai(bad_request_handler = "…")]`). A refusal whose status is listed goes to the
/// named variant; any other server error goes to `InternalError`, the rest to `BadRequest`.
macro_rules! api_error_response {
    ($response:ident, $handler:ident { $($status:ident => $variant:ident),* $(,)? }) => {
        impl From<$crate::refusal::Refusal> for $response {
            fn from(refusal: $crate::refusal::Refusal) -> Self {
                let envelope = poem_openapi::payload::Json($crate::http::envelope_of(&refusal));
                match $crate::http::status_of(refusal.kind) {
                    $(poem::http::StatusCode::$status => Self::$variant(envelope),)*
                    status if status.is_server_error() => Self::InternalError(envelope),
                    _ => Self::BadRequest(envelope),
                }
            }
        }

        fn $handler(error: poem::Error) -> $response {
            $crate::http::refusal_from_poem(&error).into()
        }
    };
}

pub(crate) use api_error_response;

mod responses;
pub use responses::{LookupResponse, MemberResponse, PublicResponse, ReadResponse};

/// Checks the `{head}` segment of a member-area path (`/api/{head}/coin/…`) against the configured
/// `platform.api_head`; another value is an unknown path (404).
pub fn check_head(
    head: &str,
    config: &crate::config::Config,
) -> Result<(), crate::refusal::Refusal> {
    if head == config.platform.api_head {
        Ok(())
    } else {
        Err(crate::refusal::Refusal::not_found(
            crate::i18n::Msg::NotFound,
        ))
    }
}
