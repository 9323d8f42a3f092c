//! Uploads checked for what they are, the security headers of every answer, and the `Origin`
//! check of the user channel (issue 22, item 10).

use std::io::Cursor;

use serde_json::Value;

use crate::helpers::{TestApp, spawn_app, spawn_app_with};
use crate::kyc::{PLAIN_PDF, UPLOAD, fetch, upload_as};

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

fn png(width: u32, height: u32) -> Vec<u8> {
    let picture = image::RgbImage::from_pixel(width, height, image::Rgb([10, 120, 200]));
    let mut out = Cursor::new(Vec::new());
    picture.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack
        .windows(needle.len())
        .any(|window| window == needle)
}

fn stored_files(app: &TestApp) -> usize {
    std::fs::read_dir(app.state().config.effective_upload_dir())
        .map(|entries| entries.count())
        .unwrap_or(0)
}

#[tokio::test]
async fn disguised_active_and_oversized_files_are_refused() {
    let app = spawn_app().await;
    let member = app.member("disguise@example.com").await;
    let signature = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut html = signature.clone();
    html.extend_from_slice(b"<html><body><script>alert(document.cookie)</script></body></html>");
    let script_pdf = b"%PDF-1.7\n1 0 obj << /Type /Catalog /OpenAction 2 0 R >> endobj\n\
        2 0 obj << /S /JavaScript /JS (app.alert(1)) >> endobj\n%%EOF\n"
        .to_vec();
    let cases: [(&str, Vec<u8>, u16, &str); 4] = [
        ("signature.png", signature, 415, "image_unreadable"),
        ("page.png", html, 415, "image_unreadable"),
        ("statement.pdf", script_pdf, 415, "pdf_active_content"),
        ("wide.png", png(9_000, 1), 400, "image_too_many_pixels"),
    ];
    for (name, bytes, status_wanted, reason_wanted) in cases {
        let (status, body) = upload_as(
            &app,
            &member.token,
            UPLOAD,
            "file",
            name,
            "application/octet-stream",
            bytes,
        )
        .await;
        assert_eq!(
            (status, reason(&body)),
            (status_wanted, reason_wanted),
            "{name}: {body}"
        );
        assert_eq!(body["data"]["field"], "file", "{body}");
    }
    // In the user's language, with the bounds named.
    let part = reqwest::multipart::Part::bytes(png(1, 9_000)).file_name("tall.png");
    let body: Value = app
        .client
        .post(format!("{}{UPLOAD}", app.base))
        .header("satoken", &member.token)
        .header("lang", "de")
        .multipart(reqwest::multipart::Form::new().part("file", part))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(
        body["msg"],
        "Das Bild ist zu groß: höchstens 8192 Pixel pro Seite und 40 Megapixel"
    );
    assert_eq!(stored_files(&app), 0, "refused files are never stored");
    app.stop().await;
}

#[tokio::test]
async fn real_images_come_back_reencoded_without_payloads_or_metadata() {
    let app = spawn_app().await;
    let member = app.member("photos@example.com").await;

    // A valid PNG with a page behind its end.
    let mut polyglot = png(6, 5);
    polyglot.extend_from_slice(b"<html><script>alert(1)</script></html>");
    // A JPEG with an EXIF segment holding a GPS position.
    let picture = image::RgbImage::from_pixel(8, 6, image::Rgb([200, 30, 30]));
    let mut out = Cursor::new(Vec::new());
    picture
        .write_to(&mut out, image::ImageFormat::Jpeg)
        .unwrap();
    let plain = out.into_inner();
    let exif = b"Exif\0\0GPSLatitude 52.5200 N GPSLongitude 13.4050 E";
    let mut located = plain[..2].to_vec();
    located.extend_from_slice(&[0xFF, 0xE1]);
    located.extend_from_slice(&((exif.len() + 2) as u16).to_be_bytes());
    located.extend_from_slice(exif);
    located.extend_from_slice(&plain[2..]);

    for (name, bytes, content_type, needle, size) in [
        (
            "polyglot.png",
            polyglot,
            "image/png",
            &b"<script>"[..],
            (6, 5),
        ),
        (
            "located.jpg",
            located,
            "image/jpeg",
            &b"GPSLatitude"[..],
            (8, 6),
        ),
    ] {
        let (status, body) = upload_as(
            &app,
            &member.token,
            UPLOAD,
            "file",
            name,
            "image/png",
            bytes.clone(),
        )
        .await;
        assert_eq!(status, 200, "{name}: {body}");
        assert_eq!(body["data"]["contentType"], content_type);
        let (status, headers, served) = fetch(&app, body["data"]["url"].as_str().unwrap()).await;
        assert_eq!(status, 200);
        assert_eq!(headers["content-type"], content_type);
        assert_eq!(headers["content-disposition"], "inline");
        assert_ne!(served, bytes, "{name} was re-encoded");
        assert!(
            !contains(&served, needle),
            "{name} still carries its payload"
        );
        assert_eq!(body["data"]["size"], served.len());
        let decoded = image::load_from_memory(&served).expect("a decodable image");
        assert_eq!((decoded.width(), decoded.height()), size, "{name}");
    }
    app.stop().await;
}

/// Asserts the security headers of one answer; `policy` is a part its CSP must have.
fn assert_secured(what: &str, headers: &reqwest::header::HeaderMap, policy: &str) {
    let header = |name: &str| {
        headers
            .get(name)
            .unwrap_or_else(|| panic!("{what}: no {name} in {headers:?}"))
            .to_str()
            .unwrap()
            .to_owned()
    };
    let csp = header("content-security-policy");
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert!(csp.contains(policy), "{what}: {csp}");
    assert_eq!(header("x-frame-options"), "DENY", "{what}");
    assert_eq!(header("x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header("referrer-policy"), "same-origin", "{what}");
}

#[tokio::test]
async fn every_page_call_and_file_carries_the_security_headers() {
    let app = spawn_app().await;
    let webapp = &app.state().config.webapp_dir;
    std::fs::create_dir_all(webapp).unwrap();
    std::fs::write(
        webapp.join("index.html"),
        "<!doctype html><title>Kestrel</title>",
    )
    .unwrap();
    let member = app.member("headers@example.com").await;
    let page = "script-src 'self' 'wasm-unsafe-eval';";

    for path in ["/", "/trade/index", "/favicon-missing.svg"] {
        let (_, headers, _) = fetch(&app, path).await;
        assert_secured(path, &headers, page);
    }
    let (status, headers, body) = fetch(&app, "/trade/index").await;
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("Kestrel"));
    assert!(
        headers["content-security-policy"]
            .to_str()
            .unwrap()
            .contains(&format!("ws://{}", app.base.trim_start_matches("http://"))),
        "the page may open its own WebSockets"
    );
    for path in [
        "/api/market/no-such-call",
        "/api/openapi.json",
        "/platform/dev/config.js",
    ] {
        let (_, headers, _) = fetch(&app, path).await;
        assert_secured(path, &headers, page);
    }
    let (status, headers, _) = fetch(&app, "/api/docs/").await;
    assert_eq!(status, 200);
    assert_secured("/api/docs/", &headers, "script-src 'self' 'unsafe-inline';");

    // Stored files: nothing in them runs; a PDF is only ever a download.
    let (status, body) = upload_as(
        &app,
        &member.token,
        UPLOAD,
        "file",
        "doc.pdf",
        "application/pdf",
        PLAIN_PDF.to_vec(),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["fileId"].as_i64().unwrap();
    let (status, headers, bytes) = fetch(&app, body["data"]["url"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(bytes, PLAIN_PDF);
    assert_secured("a PDF", &headers, "sandbox");
    assert_eq!(headers["content-type"], "application/pdf");
    assert_eq!(
        headers["content-disposition"],
        format!("attachment; filename=\"document-{id}.pdf\"").as_str()
    );
    let (status, headers, _) =
        fetch(&app, &format!("/api/file/content/{id}?expires=1&sig=00")).await;
    assert_eq!(status, 403);
    assert_secured("a refused link", &headers, "default-src 'none'");
    // An API answer of a member call.
    let response = app
        .client
        .post(format!("{}/api/user/getInfo", app.base))
        .header("satoken", &member.token)
        .send()
        .await
        .unwrap();
    assert_secured("getInfo", response.headers(), page);
    app.stop().await;
}

/// Opens the user channel of `user_id` with `cookie` and `origin`: the refusal's status, or 101.
async fn upgrade(app: &TestApp, path: &str, cookie: Option<&str>, origin: Option<&str>) -> u16 {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}{path}", app.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("cookie", cookie.parse().unwrap());
    }
    if let Some(origin) = origin {
        request
            .headers_mut()
            .insert("origin", origin.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("{path}: {other}"),
        Ok((_, response)) => response.status().as_u16(),
    }
}

#[tokio::test]
async fn a_cookie_upgrade_from_a_foreign_origin_is_refused() {
    let app = spawn_app_with(|config| {
        config.security.allowed_origins = vec!["https://kestrel.example".into()];
    })
    .await;
    let member = app.member("origin@example.com").await;
    let path = format!("/ws/user/push/{}", member.user_id);
    let cookie = format!("lang=en; coin-access-token={}", member.token);
    let own = app.base.clone();

    assert_eq!(
        upgrade(&app, &path, Some(&cookie), Some("https://evil.example")).await,
        403
    );
    assert_eq!(upgrade(&app, &path, Some(&cookie), Some("null")).await, 403);
    assert_eq!(upgrade(&app, &path, Some(&cookie), Some(&own)).await, 101);
    assert_eq!(
        upgrade(&app, &path, Some(&cookie), Some("https://kestrel.example")).await,
        101
    );
    // Not a browser: no Origin, no ambient cookie to abuse.
    assert_eq!(upgrade(&app, &path, Some(&cookie), None).await, 101);
    // A token the client sends itself is not ambient authority.
    let explicit = format!("{path}?satoken={}", member.token);
    assert_eq!(
        upgrade(&app, &explicit, None, Some("https://evil.example")).await,
        101
    );
    app.stop().await;
}
