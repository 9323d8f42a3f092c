//! Request-wide behaviour: the request's language, the envelope for every failure under `/api`
//! (unknown paths, wrong methods, unreadable bodies, panics), and request logging.

use poem::{
    Endpoint, IntoResponse, Request, Response, Result, http::StatusCode, middleware::PanicHandler,
};
use poem_openapi::types::ToJSON;

use crate::http::{envelope_of, refusal_from_poem, status_of};
use crate::i18n::{Lang, Msg, with_lang};
use crate::refusal::{Refusal, RefusalKind};

/// The language a request asks for: the `lang` / `language` / `Accept-Language` headers, then
/// a `lang` query parameter (browsers cannot set headers on a WebSocket).
pub fn request_lang(req: &Request) -> Lang {
    let from_query = || {
        req.uri().query().and_then(|query| {
            query
                .split('&')
                .filter_map(|pair| pair.split_once('='))
                .find(|(name, _)| *name == "lang")
                .map(|(_, value)| value.to_owned())
        })
    };
    Lang::from_headers(|name| match name {
        "lang" => req.header("lang").map(str::to_owned).or_else(from_query),
        other => req.header(other).map(str::to_owned),
    })
}

/// Renders a refusal as its envelope, with the HTTP status equal to the envelope's code.
pub fn error_response(refusal: &Refusal) -> Response {
    let body = envelope_of(refusal).to_json().unwrap_or_default();
    poem::web::Json(body)
        .with_status(status_of(refusal.kind))
        .into_response()
}

/// Renders a failure of the framework (unknown path, wrong method, unreadable body) as its
/// envelope; a wrong method keeps its 405, which no domain refusal stands for.
fn framework_error_response(error: &poem::Error) -> Response {
    let refusal = refusal_from_poem(error);
    if error.status() != StatusCode::METHOD_NOT_ALLOWED {
        return error_response(&refusal);
    }
    let mut envelope = envelope_of(&refusal);
    envelope.code = i32::from(StatusCode::METHOD_NOT_ALLOWED.as_u16());
    poem::web::Json(envelope.to_json().unwrap_or_default())
        .with_status(StatusCode::METHOD_NOT_ALLOWED)
        .into_response()
}

/// A request answered later than this is logged as a warning (operators look for stalls there).
pub const SLOW_REQUEST: std::time::Duration = std::time::Duration::from_millis(500);

/// Gives the request its language and turns every failure under `/api` into an envelope.
pub async fn api_middleware<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let lang = request_lang(&req);
    let is_api = req.uri().path().starts_with("/api/") || req.uri().path() == "/api";
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    with_lang(lang, async move {
        let started = std::time::Instant::now();
        let result = next.call(req).await;
        let response = match result {
            Ok(response) => Ok(response.into_response()),
            Err(error) if is_api => Ok(framework_error_response(&error)),
            Err(error) => Err(error),
        };
        if let Ok(response) = &response {
            let elapsed = started.elapsed();
            let status = response.status().as_u16();
            let elapsed_ms = elapsed.as_millis() as u64;
            if elapsed >= SLOW_REQUEST {
                tracing::warn!(%method, %path, status, elapsed_ms, "slow request");
            } else {
                tracing::debug!(%method, %path, status, elapsed_ms, "request");
            }
        }
        response
    })
    .await
}

/// Answers a panicking request with the 500 envelope, in the request's language.
#[derive(Clone)]
pub struct EnvelopePanicHandler;

impl PanicHandler for EnvelopePanicHandler {
    type Response = Response;

    fn get_response(&self, _err: Box<dyn std::any::Any + Send + 'static>) -> Self::Response {
        tracing::error!("a request handler panicked");
        error_response(&Refusal::new(RefusalKind::Internal, Msg::InternalError))
    }
}
