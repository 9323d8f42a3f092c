//! The `Origin` check of WebSocket upgrades that authenticate by cookie. A browser sends a site's
//! cookies with an upgrade that any other site's page opens (cross-site WebSocket hijacking), and
//! the same-origin policy does not stop a page from reading a WebSocket; only the `Origin` header
//! tells who opened it. Allowed: no `Origin` (not a browser, so no ambient cookie either), the
//! request's own origin (the `Origin`'s host and port equal the `Host` header) and the origins
//! configured in `security.allowed_origins`. Anything else, `null` included, is refused.

use poem::{Request, http::header};

/// Whether `req` may use a session cookie: see the module documentation.
pub fn origin_allowed(req: &Request, allowed: &[String]) -> bool {
    let Some(origin) = req.header(header::ORIGIN) else {
        return true;
    };
    let origin = origin.trim().trim_end_matches('/');
    if allowed.iter().any(|site| {
        site.trim()
            .trim_end_matches('/')
            .eq_ignore_ascii_case(origin)
    }) {
        return true;
    }
    let Some((scheme, authority)) = origin.split_once("://") else {
        return false;
    };
    if !matches!(scheme.to_ascii_lowercase().as_str(), "http" | "https") {
        return false;
    }
    let default_port = if scheme.eq_ignore_ascii_case("https") {
        "443"
    } else {
        "80"
    };
    let host = req.header(header::HOST).unwrap_or_default();
    with_port(authority, default_port).eq_ignore_ascii_case(&with_port(host, default_port))
}

/// `host[:port]` with the port made explicit.
fn with_port(authority: &str, default_port: &str) -> String {
    let has_port = match authority.rfind(':') {
        Some(colon) => !authority[colon..].contains(']'),
        None => false,
    };
    if has_port {
        authority.to_owned()
    } else {
        format!("{authority}:{default_port}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(origin: Option<&str>, host: &str) -> Request {
        let mut builder = Request::builder().header(header::HOST, host);
        if let Some(origin) = origin {
            builder = builder.header(header::ORIGIN, origin);
        }
        builder.finish()
    }

    #[test]
    fn same_origin_and_configured_sites_pass_others_do_not() {
        let sites = vec!["https://kestrel.example".to_owned()];
        let allowed = |origin, host| origin_allowed(&request(origin, host), &sites);
        assert!(allowed(None, "127.0.0.1:8080"));
        assert!(allowed(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"));
        assert!(allowed(
            Some("https://exchange.example"),
            "exchange.example"
        ));
        assert!(allowed(
            Some("https://exchange.example"),
            "exchange.example:443"
        ));
        assert!(allowed(Some("https://kestrel.example"), "internal:8080"));
        assert!(allowed(Some("https://KESTREL.example/"), "internal:8080"));
        assert!(allowed(Some("http://[::1]:8080"), "[::1]:8080"));
        assert!(!allowed(Some("https://evil.example"), "127.0.0.1:8080"));
        assert!(!allowed(Some("http://127.0.0.1:8081"), "127.0.0.1:8080"));
        assert!(!allowed(Some("null"), "127.0.0.1:8080"));
        assert!(!allowed(
            Some("https://exchange.example.evil"),
            "exchange.example"
        ));
        assert!(!allowed(
            Some("http://exchange.example"),
            "exchange.example:443"
        ));
    }
}
