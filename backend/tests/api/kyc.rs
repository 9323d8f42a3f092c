//! Uploads, signed links, identity verification, the bank card and the country list against the
//! real app.

use backend::entity::uploaded_file;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Member, PASSWORD, TestApp, spawn_app};

/// The upload call of the common area.
pub const UPLOAD: &str = "/api/common/upload/OSS";

/// A plain one-page PDF without active content.
pub const PLAIN_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
    2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

/// A real file of `kind` (`jpeg`, `png`, `webp`: a small picture; `pdf`: [`PLAIN_PDF`]), padded
/// with trailing bytes to `len` in all (what follows an image's end is dropped by the server).
pub fn sample(kind: &str, len: usize) -> Vec<u8> {
    let format = match kind {
        "jpeg" => image::ImageFormat::Jpeg,
        "png" => image::ImageFormat::Png,
        "webp" => image::ImageFormat::WebP,
        "pdf" => {
            let mut bytes = PLAIN_PDF.to_vec();
            bytes.resize(len.max(bytes.len()), b' ');
            return bytes;
        }
        other => panic!("no sample for {other}"),
    };
    let picture = image::RgbImage::from_fn(4, 3, |x, y| {
        image::Rgb([(x * 60) as u8, (y * 80) as u8, 90])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    picture
        .write_to(&mut out, format)
        .expect("an encoded sample");
    let mut bytes = out.into_inner();
    bytes.resize(len.max(bytes.len()), 0);
    bytes
}

/// What the server stores and serves for [`sample`]`(kind, len)`: the image re-encoded, the PDF as
/// it is.
pub fn served(kind: &str, len: usize) -> Vec<u8> {
    let bytes = sample(kind, len);
    let kind = backend::kyc::files::FileKind::detect(&bytes).expect("a known type");
    backend::kyc::sanitize::clean(kind, &bytes)
        .expect("a clean sample")
        .bytes
}

/// Posts a multipart form with `bytes` as field `field` (client file name `name`, declared type
/// `mime`) to `path` as `token`.
pub async fn upload_as(
    app: &TestApp,
    token: &str,
    path: &str,
    field: &str,
    name: &str,
    mime: &str,
    bytes: Vec<u8>,
) -> (u16, Value) {
    let part = reqwest::multipart::Part::bytes(bytes)
        .file_name(name.to_owned())
        .mime_str(mime)
        .expect("a MIME type");
    let form = reqwest::multipart::Form::new().part(field.to_owned(), part);
    let response = app
        .client
        .post(format!("{}{path}", app.base))
        .header("satoken", token)
        .multipart(form)
        .send()
        .await
        .expect("the request is answered");
    let status = response.status().as_u16();
    let text = response.text().await.expect("a body");
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

/// Uploads a small `kind` sample as `member` and returns the file id.
pub async fn upload_sample(app: &TestApp, member: &Member, kind: &str) -> i64 {
    let (status, body) = upload_as(
        app,
        &member.token,
        UPLOAD,
        "file",
        "photo.bin",
        "application/octet-stream",
        sample(kind, 256),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["fileId"].as_i64().expect("fileId")
}

/// `GET path` without a session: status, headers and raw bytes.
pub async fn fetch(app: &TestApp, path: &str) -> (u16, reqwest::header::HeaderMap, Vec<u8>) {
    let response = app
        .client
        .get(format!("{}{path}", app.base))
        .send()
        .await
        .expect("the request is answered");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let bytes = response.bytes().await.expect("a body").to_vec();
    (status, headers, bytes)
}

/// Creates an operator with the service behind `backend admin create-operator` and logs in.
pub async fn operator(app: &TestApp, email: &str) -> String {
    backend::admin::service::create_operator(app.db(), email, PASSWORD)
        .await
        .expect("the operator is created");
    app.login(email, PASSWORD).await
}

/// A valid basic identity form.
pub fn identity() -> Value {
    json!({"name": "Ada Lovelace", "idCard": "11010519491231002X", "country": "GB",
        "cardType": "idCard"})
}

/// Submits [`identity`] as `token`.
pub async fn submit_basic(app: &TestApp, token: &str) -> (u16, Value) {
    app.post_as(token, "/api/coin/coin/member/verified", Some(identity()))
        .await
}

/// The identity status of `token`.
pub async fn identity_status(app: &TestApp, token: &str) -> Value {
    let (status, body) = app
        .get_as(token, "/api/coin/coin/member/getMemberOtherData/yhrzxx")
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// Lets an operator decide submission `id`.
pub async fn review(
    app: &TestApp,
    operator: &str,
    id: i64,
    approve: bool,
    reason: Option<&str>,
) -> (u16, Value) {
    app.post_as(
        operator,
        "/api/admin/kyc/review",
        Some(json!({"id": id, "approve": approve, "reason": reason})),
    )
    .await
}

/// Submits and passes `member`'s basic identity.
pub async fn pass_basic(app: &TestApp, operator: &str, member: &Member) {
    let (status, body) = submit_basic(app, &member.token).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = review(app, operator, id, true, None).await;
    assert_eq!(status, 200, "{body}");
}

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn each_type_is_accepted_by_its_magic_bytes_and_stored_under_a_server_name() {
    let app = spawn_app().await;
    let member = app.member("uploader@example.com").await;
    let cases = [
        ("jpeg", "image/jpeg", "jpg", "my passport.jpeg"),
        ("png", "image/png", "png", "selfie.PNG"),
        ("webp", "image/webp", "webp", "back.webp"),
        ("pdf", "application/pdf", "pdf", "statement.pdf"),
    ];
    for (kind, content_type, extension, client_name) in cases {
        // The declared type is wrong on purpose: only the content counts.
        let (status, body) = upload_as(
            &app,
            &member.token,
            UPLOAD,
            "file",
            client_name,
            "text/plain",
            sample(kind, 1000),
        )
        .await;
        assert_eq!(status, 200, "{kind}: {body}");
        assert_eq!(body["msg"], "File uploaded");
        let data = &body["data"];
        assert_eq!(data["contentType"], content_type, "{kind}");
        assert_eq!(data["size"], served(kind, 1000).len());
        let file_id = data["fileId"].as_i64().unwrap();
        let url = data["url"].as_str().unwrap();
        assert!(
            url.starts_with(&format!("/api/file/content/{file_id}?expires=")),
            "{url}"
        );

        let row = uploaded_file::Entity::find_by_id(file_id)
            .one(app.db())
            .await
            .unwrap()
            .expect("a row");
        assert_eq!(row.user_id, member.user_id);
        assert_eq!(row.content_type, content_type);
        assert!(
            row.stored_name.ends_with(&format!(".{extension}")),
            "{}",
            row.stored_name
        );
        assert_eq!(row.stored_name.len(), 32 + 1 + extension.len());
        assert!(!row.stored_name.contains(client_name));
        let stored = app
            .state()
            .config
            .effective_upload_dir()
            .join(&row.stored_name);
        assert_eq!(std::fs::read(stored).unwrap(), served(kind, 1000));

        // The upload's own link serves it back.
        let (status, headers, bytes) = fetch(&app, url).await;
        assert_eq!(status, 200);
        assert_eq!(bytes, served(kind, 1000));
        assert_eq!(headers["content-type"], content_type);
    }
    let names: Vec<String> = std::fs::read_dir(app.state().config.effective_upload_dir())
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 4);
    for (_, _, _, client_name) in cases {
        assert!(!names.iter().any(|n| n == client_name), "{names:?}");
    }

    // The member-area path does the same.
    let (status, body) = upload_as(
        &app,
        &member.token,
        "/api/coin/cgform-api/upload/file",
        "file",
        "x.png",
        "image/png",
        sample("png", 64),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["contentType"], "image/png");
    let (status, body) = upload_as(
        &app,
        &member.token,
        "/api/other/cgform-api/upload/file",
        "file",
        "x.png",
        "image/png",
        sample("png", 64),
    )
    .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn renamed_programs_text_and_missing_files_are_refused() {
    let app = spawn_app().await;
    let member = app.member("mallory@example.com").await;
    let exe = b"MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xFF\xFF\x00\x00".to_vec();
    for (name, mime, bytes) in [
        ("photo.jpg", "image/jpeg", exe),
        (
            "scan.pdf",
            "application/pdf",
            b"just some text, not a PDF".to_vec(),
        ),
        (
            "image.png",
            "image/png",
            b"<svg xmlns='http://www.w3.org/2000/svg'/>".to_vec(),
        ),
        (
            "a.webp",
            "image/webp",
            b"RIFF\x24\x00\x00\x00WAVEfmt ".to_vec(),
        ),
    ] {
        let (status, body) =
            upload_as(&app, &member.token, UPLOAD, "file", name, mime, bytes).await;
        assert_eq!(
            (status, reason(&body)),
            (415, "unsupported_file_type"),
            "{name}: {body}"
        );
        assert_eq!(body["code"], 415);
        assert_eq!(
            body["msg"],
            "Only JPEG, PNG, WebP or PDF files are accepted"
        );
    }

    // A form without the `file` field, an empty file (no file chosen), no body at all.
    let (status, body) = upload_as(
        &app,
        &member.token,
        UPLOAD,
        "document",
        "a.png",
        "image/png",
        sample("png", 64),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "file_required"), "{body}");
    let (status, body) = upload_as(
        &app,
        &member.token,
        UPLOAD,
        "file",
        "",
        "application/octet-stream",
        Vec::new(),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "file_required"), "{body}");
    let (status, body) = app.post_as(&member.token, UPLOAD, None).await;
    assert_eq!((status, reason(&body)), (400, "file_required"), "{body}");
    assert_eq!(body["msg"], "Please choose a file");
    // JSON is not an upload.
    let (status, body) = app
        .post_as(&member.token, UPLOAD, Some(json!({"file": "x"})))
        .await;
    assert_eq!(status, 415, "{body}");

    // No session, no upload.
    let (status, body) = upload_as(
        &app,
        "",
        UPLOAD,
        "file",
        "a.png",
        "image/png",
        sample("png", 64),
    )
    .await;
    assert_eq!(status, 401, "{body}");

    let stored = std::fs::read_dir(app.state().config.effective_upload_dir())
        .map(|entries| entries.count())
        .unwrap_or(0);
    assert_eq!(stored, 0, "refused files are never stored");
    app.stop().await;
}

#[tokio::test]
async fn files_up_to_the_limit_pass_and_larger_ones_are_a_413_envelope() {
    let app = spawn_app().await;
    let member = app.member("big@example.com").await;
    let limit = app.state().config.security.max_upload_bytes;
    assert_eq!(limit, 5 * 1024 * 1024);

    let (status, body) = upload_as(
        &app,
        &member.token,
        UPLOAD,
        "file",
        "max.jpg",
        "image/jpeg",
        sample("jpeg", limit),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["size"], served("jpeg", limit).len());

    for size in [limit + 1, limit + 2 * 1024 * 1024] {
        let (status, body) = app
            .client
            .post(format!("{}{UPLOAD}", app.base))
            .header("satoken", &member.token)
            .header("lang", "de")
            .multipart(reqwest::multipart::Form::new().part(
                "file",
                reqwest::multipart::Part::bytes(sample("jpeg", size)).file_name("big.jpg"),
            ))
            .send()
            .await
            .map(|r| (r.status().as_u16(), r))
            .expect("the 413 is answered, not a broken connection");
        let body: Value = body.json().await.expect("the envelope");
        assert_eq!(status, 413, "{size}: {body}");
        assert_eq!(body["code"], 413);
        assert_eq!(reason(&body), "file_too_large");
        assert_eq!(body["data"]["field"], "file");
        assert!(body["msg"].as_str().unwrap().contains('5'), "{body}");
    }

    // A chunked body (no Content-Length) is counted as it arrives.
    let response = chunked_upload(&app, &member.token, 6).await;
    assert!(response.starts_with("HTTP/1.1 413"), "{response}");
    assert!(response.contains("file_too_large"), "{response}");

    let rows = uploaded_file::Entity::find()
        .filter(uploaded_file::Column::UserId.eq(member.user_id))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(rows.len(), 1, "only the file at the limit was stored");
    app.stop().await;
}

/// Uploads a JPEG of `mib` MiB as a chunked body (no Content-Length) over a raw connection and
/// returns the whole response.
async fn chunked_upload(app: &TestApp, token: &str, mib: usize) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let boundary = "kestrel-boundary";
    let addr = app.base.trim_start_matches("http://");
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {UPLOAD} HTTP/1.1\r\nHost: {addr}\r\nsatoken: {token}\r\nConnection: close\r\n\
         Content-Type: multipart/form-data; boundary={boundary}\r\n\
         Transfer-Encoding: chunked\r\n\r\n"
    );
    socket.write_all(head.as_bytes()).await.unwrap();
    let mut part = format!(
        "--{boundary}\r\nContent-Disposition: form-data; name=\"file\"; filename=\"s.jpg\"\r\n\
         Content-Type: image/jpeg\r\n\r\n"
    )
    .into_bytes();
    part.extend_from_slice(&sample("jpeg", 16));
    let mut chunks = vec![part];
    chunks.extend((0..mib).map(|_| vec![b'x'; 1024 * 1024]));
    chunks.push(format!("\r\n--{boundary}--\r\n").into_bytes());
    for chunk in chunks {
        let mut framed = format!("{:x}\r\n", chunk.len()).into_bytes();
        framed.extend_from_slice(&chunk);
        framed.extend_from_slice(b"\r\n");
        if socket.write_all(&framed).await.is_err() {
            break;
        }
    }
    socket.write_all(b"0\r\n\r\n").await.ok();
    let mut response = Vec::new();
    tokio::time::timeout(
        std::time::Duration::from_secs(20),
        socket.read_to_end(&mut response),
    )
    .await
    .expect("answered within 20 s")
    .expect("a response");
    String::from_utf8_lossy(&response).into_owned()
}

#[tokio::test]
async fn signed_links_work_for_five_minutes_and_only_with_their_signature() {
    let app = spawn_app().await;
    let member = app.member("links@example.com").await;
    let file_id = upload_sample(&app, &member, "png").await;

    let (status, body) = app
        .get_as(
            &member.token,
            &format!("/api/file/getSignedUrl?fileId={file_id}"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let url = body["data"]["url"].as_str().unwrap().to_owned();
    let expires_at = body["data"]["expiresAt"].as_i64().unwrap();
    let now = chrono::Utc::now().timestamp_millis();
    assert!(
        (now + 290_000..=now + 300_000).contains(&expires_at),
        "{expires_at}"
    );
    assert!(url.contains(&format!("expires={expires_at}")), "{url}");

    // No session is needed: it is used in <img src>.
    let (status, headers, bytes) = fetch(&app, &url).await;
    assert_eq!(status, 200);
    assert_eq!(bytes, served("png", 256));
    assert_eq!(headers["content-type"], "image/png");
    assert_eq!(headers["cache-control"], "private, max-age=300");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["content-disposition"], "inline");

    let key = app.state().link_key.clone();
    let sig = |id: i64, expires: i64| backend::kyc::files::signature(&key, id, expires);
    let expired = now - 1;
    let good_sig = sig(file_id, expires_at);
    let mut forged = good_sig.clone().into_bytes();
    forged[0] = if forged[0] == b'0' { b'1' } else { b'0' };
    let forged = String::from_utf8(forged).unwrap();
    for (case, path) in [
        (
            "expired",
            format!(
                "/api/file/content/{file_id}?expires={expired}&sig={}",
                sig(file_id, expired)
            ),
        ),
        (
            "forged",
            format!("/api/file/content/{file_id}?expires={expires_at}&sig={forged}"),
        ),
        (
            "later expiry",
            format!(
                "/api/file/content/{file_id}?expires={}&sig={good_sig}",
                expires_at + 60_000
            ),
        ),
        (
            "other file",
            format!(
                "/api/file/content/{}?expires={expires_at}&sig={good_sig}",
                file_id + 1
            ),
        ),
        ("no signature", format!("/api/file/content/{file_id}")),
        (
            "not hex",
            format!("/api/file/content/{file_id}?expires={expires_at}&sig=zz"),
        ),
    ] {
        let (status, headers, bytes) = fetch(&app, &path).await;
        let body: Value = serde_json::from_slice(&bytes).expect("an envelope");
        assert_eq!(status, 403, "{case}: {body}");
        assert_eq!(reason(&body), "link_expired", "{case}");
        assert_eq!(body["msg"], "This link has expired");
        assert!(
            headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{case}"
        );
    }

    // A valid signature for a file that does not exist.
    let missing = file_id + 1000;
    let path = format!(
        "/api/file/content/{missing}?expires={expires_at}&sig={}",
        sig(missing, expires_at)
    );
    let (status, _, _) = fetch(&app, &path).await;
    assert_eq!(status, 404);
    let (status, body) = app
        .get_as(&member.token, "/api/file/getSignedUrl?fileId=999999")
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn another_users_file_ids_are_not_found_on_every_object_endpoint() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let alice = app.member("alice@example.com").await;
    let bob = app.member("bob@example.com").await;
    let alice_file = upload_sample(&app, &alice, "jpeg").await;
    let bob_files = [
        upload_sample(&app, &bob, "jpeg").await,
        upload_sample(&app, &bob, "png").await,
        upload_sample(&app, &bob, "pdf").await,
    ];
    // Bob has passed basic, so uploadKYC gets as far as checking the files.
    pass_basic(&app, &ops, &bob).await;

    // getSignedUrl
    let (status, body) = app
        .get_as(
            &bob.token,
            &format!("/api/file/getSignedUrl?fileId={alice_file}"),
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");

    // uploadKYC, Alice's id in each position
    for field in ["frontFileId", "backFileId", "holdFileId"] {
        let mut form = json!({"frontFileId": bob_files[0], "backFileId": bob_files[1],
            "holdFileId": bob_files[2]});
        form[field] = json!(alice_file);
        let (status, body) = app
            .post_as(&bob.token, "/api/user/uploadKYC", Some(form))
            .await;
        assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
        assert_eq!(body["data"]["field"], field);
    }

    // getFileContent: Bob's own signature does not open Alice's file.
    let (_, body) = app
        .get_as(
            &bob.token,
            &format!("/api/file/getSignedUrl?fileId={}", bob_files[0]),
        )
        .await;
    let bob_url = body["data"]["url"].as_str().unwrap();
    let swapped = bob_url.replacen(
        &format!("/content/{}?", bob_files[0]),
        &format!("/content/{alice_file}?"),
        1,
    );
    let (status, _, _) = fetch(&app, &swapped).await;
    assert_eq!(status, 403);

    // The admin calls are for operators only.
    let (status, body) = app.get_as(&bob.token, "/api/admin/kyc/list").await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");

    // Nothing was submitted; Alice's own link still works, and an operator may see it.
    let status = identity_status(&app, &bob.token).await;
    assert!(status["advanced"].is_null(), "{status}");
    let (status, body) = app
        .get_as(&ops, &format!("/api/file/getSignedUrl?fileId={alice_file}"))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _, bytes) = fetch(&app, body["data"]["url"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(bytes, served("jpeg", 256));
    app.stop().await;
}

#[tokio::test]
async fn basic_identity_is_checked_and_submitted_once() {
    let app = spawn_app().await;
    let member = app.member("ada@example.com").await;
    let status = identity_status(&app, &member.token).await;
    assert_eq!(status, json!({"level": 0}), "{status}");

    let mut bad = identity();
    bad["idCard"] = json!("AB 12");
    let (status, body) = app
        .post_as(&member.token, "/api/coin/coin/member/verified", Some(bad))
        .await;
    assert_eq!((status, reason(&body)), (400, "id_number_format"), "{body}");
    assert_eq!(body["data"]["field"], "idCard");
    let mut blank = identity();
    blank["name"] = json!("  ");
    let (status, body) = app
        .post_as(&member.token, "/api/coin/coin/member/verified", Some(blank))
        .await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    assert_eq!(body["data"]["field"], "name");
    let mut driver = identity();
    driver["cardType"] = json!("driverLicence");
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/verified",
            Some(driver),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["field"], "cardType");

    let (status, body) = submit_basic(&app, &member.token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Submitted successfully");
    assert_eq!(body["data"]["status"], "review");
    assert_eq!(body["data"]["idCard"], "**************002X");

    let (status, body) = submit_basic(&app, &member.token).await;
    assert_eq!((status, reason(&body)), (400, "kyc_under_review"), "{body}");

    let status = identity_status(&app, &member.token).await;
    assert_eq!(status["level"], 0);
    assert_eq!(status["basic"]["status"], "review");
    assert_eq!(status["basic"]["name"], "Ada Lovelace");
    assert_eq!(status["basic"]["country"], "GB");
    assert_eq!(status["basic"]["cardType"], "idCard");
    assert_eq!(status["basic"]["idCard"], "**************002X");
    assert!(status["basic"]["reviewedAt"].is_null());
    assert!(status["advanced"].is_null());

    // Advanced verification waits for basic to pass.
    let files = [
        upload_sample(&app, &member, "jpeg").await,
        upload_sample(&app, &member, "jpeg").await,
        upload_sample(&app, &member, "jpeg").await,
    ];
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/uploadKYC",
            Some(json!({"frontFileId": files[0], "backFileId": files[1],
                "holdFileId": files[2]})),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "kyc_basic_required"),
        "{body}"
    );
    assert_eq!(body["msg"], "Please complete basic verification first");

    let (status, _) = app
        .get_as(
            &member.token,
            "/api/nope/coin/member/getMemberOtherData/yhrzxx",
        )
        .await;
    assert_eq!(status, 404);
    let (status, _, _) = app
        .get("/api/coin/coin/member/getMemberOtherData/yhrzxx")
        .await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn simultaneous_basic_submissions_make_one_review() {
    let app = spawn_app().await;
    let member = app.member("twice@example.com").await;
    let answers =
        futures_util::future::join_all((0..4).map(|_| submit_basic(&app, &member.token))).await;
    let accepted = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(accepted, 1, "{answers:?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
        assert_eq!((*status, reason(body)), (400, "kyc_under_review"), "{body}");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_bank_card_is_bound_once_and_shown_masked() {
    let app = spawn_app().await;
    let member = app.member("card@example.com").await;
    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/member/getPayment")
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"].is_null(), "{body}");

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/payment",
            Some(json!({"cardNumber": "4111-1111", "bankName": "ICBC"})),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "card_number_format"),
        "{body}"
    );
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/payment",
            Some(json!({"cardNumber": "6222 0212 3456 7890 128"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "missing_field"), "{body}");
    assert_eq!(body["data"]["field"], "bankName");

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/payment",
            Some(
                json!({"cardNumber": "6222 0212 3456 7890 128", "bankName": "ICBC",
                "swiftCode": "icbkcnbj", "branch": "Beijing", "bankPhone": " "}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Bound successfully", "{body}");
    assert_eq!(body["data"]["cardNumber"], "**** **** **** 0128");
    assert_eq!(body["data"]["swiftCode"], "ICBKCNBJ");
    assert!(body["data"]["bankPhone"].is_null());

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/member/payment",
            Some(json!({"cardNumber": "4111 1111 1111 1111", "bankName": "Other"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "bank_card_bound"), "{body}");

    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/member/getPayment")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["cardNumber"], "**** **** **** 0128");
    assert_eq!(body["data"]["bankName"], "ICBC");
    assert_eq!(body["data"]["branch"], "Beijing");
    assert!(!body.to_string().contains("6222021234567890128"));

    // Two binds at once: exactly one wins.
    let other = app.member("race@example.com").await;
    let bind = |number: &'static str| {
        app.post_as(
            &other.token,
            "/api/coin/coin/member/payment",
            Some(json!({"cardNumber": number, "bankName": "Bank"})),
        )
    };
    let (a, b) = tokio::join!(bind("4111111111111111"), bind("5500000000000004"));
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 400], "{a:?} {b:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_country_list_has_every_iso_country_with_its_calling_code() {
    let app = spawn_app().await;
    let (status, body) = app.post("/api/user/getCountryCode", None, &[]).await;
    assert_eq!(status, 200, "{body}");
    let list = body["data"].as_array().unwrap();
    assert_eq!(list.len(), 249);
    let find = |code: &str| {
        list.iter()
            .find(|c| c["code"] == code)
            .unwrap_or_else(|| panic!("{code} missing"))
            .clone()
    };
    assert_eq!(
        find("DE"),
        json!({"code": "DE", "dialCode": "+49", "name": "Germany"})
    );
    assert_eq!(find("US")["dialCode"], "+1");
    assert_eq!(find("CN")["dialCode"], "+86");
    assert_eq!(find("LT")["name"], "Lithuania");
    assert_eq!(find("JP")["dialCode"], "+81");
    app.stop().await;
}
