//! The webapp's files: compressed copies by `Accept-Encoding`, long-lived caching for the hashed
//! files under `/assets/`, `no-cache` for `index.html` and the routes answered with it, the wasm type,
//! a 404 for a missing hashed file, and the security headers on all of them.

use std::path::Path;

use reqwest::header::HeaderMap;

use crate::helpers::{TestApp, spawn_app};

const INDEX: &str = "<!doctype html><title>Kestrel</title><script type=module src=/assets/index-1a2b3c.js></script>";
const SCRIPT: &str = "console.log('the entry chunk');";
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// A built webapp in the test app's webapp folder: index.html, a hashed script with its `.br` and
/// `.gz` copies (fake bytes: only which file is served matters), a wasm module, an unhashed icon.
fn write_webapp(root: &Path) {
    std::fs::create_dir_all(root.join("assets")).unwrap();
    std::fs::write(root.join("index.html"), INDEX).unwrap();
    std::fs::write(root.join("index.html.gz"), b"gzip index").unwrap();
    std::fs::write(root.join("assets/index-1a2b3c.js"), SCRIPT).unwrap();
    std::fs::write(root.join("assets/index-1a2b3c.js.br"), b"brotli script").unwrap();
    std::fs::write(root.join("assets/index-1a2b3c.js.gz"), b"gzip script").unwrap();
    std::fs::write(root.join("assets/core-9f8e.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(root.join("favicon.svg"), "<svg/>").unwrap();
}

/// GET `path` with `Accept-Encoding: accept` (none when empty): status, headers, raw body.
async fn get(app: &TestApp, path: &str, accept: &str) -> (u16, HeaderMap, Vec<u8>) {
    let mut request = app.client.get(format!("{}{path}", app.base));
    if !accept.is_empty() {
        request = request.header("accept-encoding", accept);
    }
    let response = request.send().await.expect("answered");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    (status, headers, response.bytes().await.unwrap().to_vec())
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).map(|value| value.to_str().unwrap())
}

fn assert_page_csp(what: &str, headers: &HeaderMap) {
    let csp = header(headers, "content-security-policy").unwrap_or_default();
    assert!(
        csp.contains("script-src 'self' 'wasm-unsafe-eval';"),
        "{what}: {csp}"
    );
    assert_eq!(
        header(headers, "x-content-type-options"),
        Some("nosniff"),
        "{what}"
    );
}

#[tokio::test]
async fn hashed_assets_are_compressed_by_accept_encoding_and_cached_for_a_year() {
    let app = spawn_app().await;
    write_webapp(&app.state().config.webapp_dir);
    let script = "/assets/index-1a2b3c.js";

    let (status, headers, body) = get(&app, script, "gzip, deflate, br, zstd").await;
    assert_eq!(status, 200);
    assert_eq!(body, b"brotli script");
    assert_eq!(header(&headers, "content-encoding"), Some("br"));
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );
    assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
    assert_eq!(header(&headers, "cache-control"), Some(IMMUTABLE));
    assert_page_csp(script, &headers);

    let (_, headers, body) = get(&app, script, "gzip, deflate").await;
    assert_eq!(body, b"gzip script");
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "cache-control"), Some(IMMUTABLE));

    // br refused by weight: gzip; nothing accepted: the file itself, still marked as varying.
    let (_, headers, body) = get(&app, script, "br;q=0, gzip").await;
    assert_eq!(body, b"gzip script");
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    let (_, headers, body) = get(&app, script, "identity").await;
    assert_eq!(body, SCRIPT.as_bytes());
    assert_eq!(header(&headers, "content-encoding"), None);
    assert_eq!(header(&headers, "vary"), Some("accept-encoding"));
    assert_eq!(
        header(&headers, "content-type"),
        Some("text/javascript; charset=utf-8")
    );

    // Each coding has its own validator, and a revalidation answers 304 with the same caching.
    let (_, br, _) = get(&app, script, "br").await;
    let (_, gz, _) = get(&app, script, "gzip").await;
    let br_tag = header(&br, "etag").expect("an ETag").to_owned();
    assert_ne!(Some(br_tag.as_str()), header(&gz, "etag"));
    let response = app
        .client
        .get(format!("{}{script}", app.base))
        .header("accept-encoding", "br")
        .header("if-none-match", &br_tag)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 304);
    assert_eq!(header(response.headers(), "cache-control"), Some(IMMUTABLE));

    // The wasm module: its own type (instantiateStreaming needs it), cached for a year.
    let (status, headers, _) = get(&app, "/assets/core-9f8e.wasm", "gzip, br").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), Some("application/wasm"));
    assert_eq!(header(&headers, "cache-control"), Some(IMMUTABLE));
    assert_eq!(header(&headers, "content-encoding"), None);
    app.stop().await;
}

#[tokio::test]
async fn the_page_and_unhashed_files_are_revalidated_and_a_missing_chunk_is_not_the_page() {
    let app = spawn_app().await;
    write_webapp(&app.state().config.webapp_dir);

    // `/assets/index` is the app's My assets route, not a file.
    for path in [
        "/",
        "/index.html",
        "/trade/index?type=bb",
        "/home/index",
        "/assets/index?key=overview",
    ] {
        let (status, headers, body) = get(&app, path, "identity").await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(body, INDEX.as_bytes(), "{path}");
        assert_eq!(
            header(&headers, "cache-control"),
            Some("no-cache"),
            "{path}"
        );
        assert_eq!(
            header(&headers, "content-type"),
            Some("text/html; charset=utf-8"),
            "{path}"
        );
        assert_page_csp(path, &headers);
    }
    // The fallback page is compressed too when a copy exists.
    let (_, headers, body) = get(&app, "/quotes/index", "gzip").await;
    assert_eq!(body, b"gzip index");
    assert_eq!(header(&headers, "content-encoding"), Some("gzip"));
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    assert_eq!(header(&headers, "vary"), Some("accept-encoding"));

    let (status, headers, _) = get(&app, "/favicon.svg", "gzip").await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), Some("no-cache"));
    assert_eq!(header(&headers, "content-type"), Some("image/svg+xml"));

    // A chunk of an older build: a 404, not the page (which a browser would refuse as a script).
    let (status, headers, body) = get(&app, "/assets/trade-page-old.js", "gzip").await;
    assert_eq!(status, 404);
    assert!(!String::from_utf8_lossy(&body).contains("Kestrel"));
    assert_page_csp("a missing chunk", &headers);

    // Nothing outside the folder is reachable.
    let outside = app
        .state()
        .config
        .webapp_dir
        .parent()
        .unwrap()
        .join("secret.txt");
    std::fs::write(&outside, "secret").unwrap();
    for path in [
        "/../secret.txt",
        "/assets/%2e%2e/%2e%2e/secret.txt",
        "/%2e%2e/secret.txt",
    ] {
        let (_, _, body) = get(&app, path, "").await;
        assert!(!String::from_utf8_lossy(&body).contains("secret"), "{path}");
    }
    app.stop().await;
}
