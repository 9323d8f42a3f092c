//! The security headers of every answer: pages, API calls, files and failures alike.
//!
//! - `Content-Security-Policy`: the webapp's ([`PAGE_CSP`]) runs only its own scripts (plus
//!   `'wasm-unsafe-eval'` to compile its WebAssembly core), takes styles inline (Chakra's emotion
//!   writes `<style>` elements at run time), images from itself, `data:` and `blob:`, and connects
//!   only to its own origin, by HTTP and WebSocket. The browsable API reference under `/api/docs`
//!   has its own ([`DOCS_CSP`]): poem-openapi's Swagger UI page is one HTML file with its script
//!   and styles inline. Stored files get [`FILE_CSP`]: nothing runs, even if a browser took one for
//!   a page.
//! - Each policy has `frame-ancestors 'none'`, and every answer `X-Frame-Options: DENY` (no page is
//!   framed: clickjacking), `X-Content-Type-Options: nosniff` and `Referrer-Policy: same-origin`
//!   (signed file links and page paths never leave the site in a `Referer`).
//!
//! A header a handler set itself is kept.

use poem::{
    Endpoint, IntoResponse, Request, Response, Result,
    http::{HeaderName, HeaderValue, header},
};

/// The policy of the webapp's pages and of API answers.
pub const PAGE_CSP: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; \
    connect-src 'self'{ws}; worker-src 'self' blob:; object-src 'none'; base-uri 'self'; \
    form-action 'self'; frame-ancestors 'none'";

/// The policy of the Swagger UI page under `/api/docs` (inline script and styles, no framing).
pub const DOCS_CSP: &str = "default-src 'self'; script-src 'self' 'unsafe-inline'; \
    style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
    object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The policy of stored files served under `/api/file/content/`: nothing runs.
pub const FILE_CSP: &str = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; frame-ancestors 'none'; sandbox";

/// The policy for a request to `path` on `host` (the `Host` header): the webapp's names the
/// WebSocket origins of the host, for browsers that do not count `ws:`/`wss:` as `'self'`.
pub fn policy_for(path: &str, host: Option<&str>) -> String {
    if path == "/api/docs" || path.starts_with("/api/docs/") {
        return DOCS_CSP.to_owned();
    }
    if path.starts_with("/api/file/content/") {
        return FILE_CSP.to_owned();
    }
    let ws = host
        .filter(|host| is_plain_host(host))
        .map(|host| format!(" ws://{host} wss://{host}"))
        .unwrap_or_default();
    PAGE_CSP.replace("{ws}", &ws)
}

/// A `Host` value safe to repeat in a policy: a name or address with an optional port.
fn is_plain_host(host: &str) -> bool {
    !host.is_empty()
        && host.len() <= 255
        && host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':' | b'[' | b']'))
}

/// Sets `name` to `value` unless the answer has it already.
fn set_default(response: &mut Response, name: HeaderName, value: &str) {
    if !response.headers().contains_key(&name)
        && let Ok(value) = HeaderValue::from_str(value)
    {
        response.headers_mut().insert(name, value);
    }
}

/// Adds the security headers (module documentation) to every answer of `next`, failures included.
pub async fn security_headers<E: Endpoint>(next: E, req: Request) -> Result<Response> {
    let policy = policy_for(req.uri().path(), req.header(header::HOST));
    let mut response = match next.call(req).await {
        Ok(response) => response.into_response(),
        Err(error) => error.into_response(),
    };
    set_default(&mut response, header::CONTENT_SECURITY_POLICY, &policy);
    set_default(&mut response, header::X_FRAME_OPTIONS, "DENY");
    set_default(&mut response, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set_default(&mut response, header::REFERRER_POLICY, "same-origin");
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_path_has_its_policy() {
        let page = policy_for("/trade/index", Some("127.0.0.1:8080"));
        assert!(
            page.contains("script-src 'self' 'wasm-unsafe-eval';"),
            "{page}"
        );
        assert!(page.contains("connect-src 'self' ws://127.0.0.1:8080 wss://127.0.0.1:8080;"));
        assert!(page.contains("frame-ancestors 'none'"));
        assert!(!page.contains("unsafe-eval'") || page.contains("'wasm-unsafe-eval'"));
        assert!(!page.contains("script-src 'self' 'unsafe-inline'"));
        assert_eq!(policy_for("/api/docs", None), DOCS_CSP);
        assert_eq!(policy_for("/api/docs/", None), DOCS_CSP);
        assert_eq!(policy_for("/api/file/content/7", None), FILE_CSP);
        // A strange Host is left out rather than repeated.
        let odd = policy_for("/", Some("evil.com; script-src *"));
        assert!(odd.contains("connect-src 'self';"), "{odd}");
    }
}
