//! The webapp's files (`webapp/dist`): compressed when the browser accepts it, cached by what they are.
//!
//! - **Compression.** The webapp build writes a `.br` (brotli) and a `.gz` (gzip) copy beside each
//!   compressible file (`webapp/build/precompress.ts`). The copy is served, with `Content-Encoding`,
//!   when `Accept-Encoding` accepts its coding (brotli first); otherwise the file itself. Answers for a
//!   file that has copies say `Vary: Accept-Encoding`, so a shared cache keeps one answer per coding.
//!   Compressing at build time costs the server nothing per request and keeps nothing in memory.
//! - **Caching.** Files under `/assets/` carry a content hash in their names (a new build, new names):
//!   `Cache-Control: public, max-age=31536000, immutable`. Everything else — `index.html`, the pages
//!   answered with it (the single-page app's routes) and the unhashed files (favicon, coin logos) —
//!   is `no-cache`: revalidated on every use (`ETag`, `Last-Modified`), so a deploy is seen at once.
//! - A file name under `/assets/` with no file is a 404 (a stale chunk name after a deploy must fail
//!   as a load error, not load the page's HTML as JavaScript); any other unknown path — the app's
//!   own `/assets/index` (My assets) included — is the app's `index.html` (its router shows the route).
//! - `.wasm` is `application/wasm` (what `WebAssembly.instantiateStreaming` requires).

use std::path::{Component, Path, PathBuf};

use poem::{
    Endpoint, FromRequest, IntoResponse, Request, Response, Result,
    error::StaticFileError,
    http::{HeaderValue, Method, StatusCode, header},
    web::StaticFileRequest,
};

/// `Cache-Control` of the content-hashed files under `/assets/`.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of `index.html` and the other unhashed files.
pub const REVALIDATE: &str = "no-cache";

/// The encodings served from compressed copies, in order of preference: (coding, file suffix).
const CODINGS: [(&str, &str); 2] = [("br", "br"), ("gzip", "gz")];

/// Serves the files under a folder (module documentation).
pub struct WebappFiles {
    root: PathBuf,
}

impl WebappFiles {
    /// Serves the files under `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }
}

impl Endpoint for WebappFiles {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Response> {
        if req.method() != Method::GET && req.method() != Method::HEAD {
            return Err(StaticFileError::MethodNotAllowed(req.method().clone()).into());
        }
        let path = req.uri().path().to_owned();
        let hashed = path.starts_with("/assets/");
        let file = relative_path(&path)
            .map(|relative| self.root.join(relative))
            .filter(|file| file.is_file());
        let (file, cache) = match file {
            Some(file) => (file, if hashed { IMMUTABLE } else { REVALIDATE }),
            // A file name (`/assets/x-1a2b.js`), not a route of the app (`/assets/index`).
            None if hashed && names_a_file(&path) => {
                return Err(StaticFileError::NotFound.into());
            }
            None => (self.root.join("index.html"), REVALIDATE),
        };
        serve(&req, &file, cache).await
    }
}

/// The answer for `file` (which exists, or the answer is a 404): a compressed copy when accepted.
async fn serve(req: &Request, file: &Path, cache: &'static str) -> Result<Response> {
    let accept = req.header(header::ACCEPT_ENCODING).unwrap_or_default();
    let mut has_copies = false;
    let mut chosen: Option<(&'static str, PathBuf)> = None;
    for (coding, suffix) in CODINGS {
        let copy = sibling(file, suffix);
        if copy.is_file() {
            has_copies = true;
            if chosen.is_none() && accepts(accept, coding) {
                chosen = Some((coding, copy));
            }
        }
    }
    let served = chosen.as_ref().map_or(file, |(_, copy)| copy.as_path());
    let mut response = StaticFileRequest::from_request_without_body(req)
        .await?
        .create_response(served, true, false)?
        .into_response();
    let headers = response.headers_mut();
    if has_copies {
        headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    if response.status() != StatusCode::NOT_MODIFIED {
        let headers = response.headers_mut();
        if let Some((coding, _)) = &chosen {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(coding));
        }
        if let Some(content_type) = content_type(file) {
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
        } else if chosen.is_some() {
            // The copy's own type (`.br`, `.gz`) is not the content's.
            headers.remove(header::CONTENT_TYPE);
        }
    }
    Ok(response)
}

/// Whether the last part of a request path has an extension, as the build's files all do (the app's
/// routes, such as `/assets/index`, have none).
fn names_a_file(path: &str) -> bool {
    path.rsplit('/')
        .next()
        .is_some_and(|name| name.rfind('.').is_some_and(|dot| dot > 0))
}

/// `file` with `.suffix` appended (`app.js` → `app.js.br`).
fn sibling(file: &Path, suffix: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".");
    name.push(suffix);
    PathBuf::from(name)
}

/// The type of the files the webapp ships, by extension (others keep the guess of poem).
fn content_type(file: &Path) -> Option<&'static str> {
    Some(match file.extension()?.to_str()? {
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "html" => "text/html; charset=utf-8",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "json" | "map" => "application/json",
        "txt" => "text/plain; charset=utf-8",
        _ => return None,
    })
}

/// Whether an `Accept-Encoding` value accepts `coding` (named, or `*`, with a non-zero weight).
pub fn accepts(accept_encoding: &str, coding: &str) -> bool {
    let mut named = None;
    let mut any = None;
    for item in accept_encoding.split(',') {
        let mut parts = item.split(';');
        let token = parts.next().unwrap_or_default().trim();
        let weight = parts
            .filter_map(|param| {
                let (name, value) = param.split_once('=')?;
                name.trim()
                    .eq_ignore_ascii_case("q")
                    .then(|| value.trim().parse::<f32>().unwrap_or(0.0))
            })
            .next_back()
            .unwrap_or(1.0);
        if token.eq_ignore_ascii_case(coding) {
            named = Some(weight);
        } else if token == "*" {
            any = Some(weight);
        }
    }
    named.or(any).is_some_and(|weight| weight > 0.0)
}

/// The file path a request path names under the root: percent-decoded, its empty and `.` parts
/// dropped, and refused (`None`) when a part would leave the root (`..`, a drive, a separator).
fn relative_path(path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(path)?;
    let mut relative = PathBuf::new();
    for part in decoded.split('/') {
        if part.is_empty() || part == "." {
            continue;
        }
        if part.contains('\\') || part.contains('\0') {
            return None;
        }
        match Path::new(part).components().next() {
            Some(Component::Normal(_)) => relative.push(part),
            _ => return None,
        }
    }
    Some(relative)
}

/// `%XX` sequences decoded; `None` when one is malformed or the result is not UTF-8.
fn percent_decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br, zstd", "br"));
        assert!(accepts("gzip, deflate, br, zstd", "gzip"));
        assert!(!accepts("gzip, deflate", "br"));
        assert!(!accepts("", "gzip"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(accepts("br;q=0.5", "br"));
        assert!(accepts("*", "br"));
        assert!(!accepts("*, br;q=0", "br"));
        assert!(!accepts("identity", "gzip"));
        assert!(accepts("GZIP", "gzip"));
    }

    #[test]
    fn request_paths_stay_under_the_root() {
        assert_eq!(
            relative_path("/assets/app-1a2b.js"),
            Some(PathBuf::from("assets/app-1a2b.js"))
        );
        assert_eq!(relative_path("/"), Some(PathBuf::new()));
        assert_eq!(relative_path("/a/./b"), Some(PathBuf::from("a/b")));
        assert_eq!(
            relative_path("/coin%2Dlogos/btc.svg"),
            Some(PathBuf::from("coin-logos/btc.svg"))
        );
        for escaping in [
            "/../etc/passwd",
            "/assets/%2e%2e/x",
            "/a\\..\\b",
            "/%zz",
            "/x%00",
        ] {
            assert_eq!(relative_path(escaping), None, "{escaping}");
        }
    }

    #[test]
    fn the_shipped_kinds_have_their_types() {
        assert_eq!(content_type(Path::new("a.wasm")), Some("application/wasm"));
        assert_eq!(
            content_type(Path::new("a.js")),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(content_type(Path::new("a.png")), None);
        assert_eq!(
            sibling(Path::new("d/a.js"), "br"),
            PathBuf::from("d/a.js.br")
        );
    }
}
