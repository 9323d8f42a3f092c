//! The backend's shape, held by the build (docs/architecture.md, "Layers"): HTTP stays in the HTTP
//! layer, no domain reaches into the composition root, and no file grows past what one reader
//! holds in mind. Each rule names the files that break it.

use std::path::{Path, PathBuf};

/// The longest a source file may be (a file of tests, `tests.rs`, excepted).
const MAX_LINES: usize = 1000;

fn source_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src/`, as (path relative to `src/` with `/` separators, text).
fn sources() -> Vec<(String, String)> {
    fn walk(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("the source folder reads") {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let relative = path
                    .strip_prefix(root)
                    .expect("under the root")
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((
                    relative,
                    std::fs::read_to_string(&path).expect("a source file"),
                ));
            }
        }
    }
    let mut out = Vec::new();
    walk(&source_root(), &source_root(), &mut out);
    assert!(out.len() > 100, "the walk found the sources");
    out
}

/// The code of `text` without its comment lines (a doc may name what the code must not use).
fn code_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
}

/// Whether `path` is part of the HTTP layer: the envelope and middleware (`http/`), the
/// composition root (`app/`, `main.rs`), a domain's handlers (`api.rs`, `*_api.rs`), the live
/// channels (`ws.rs`), and the two request extractors of a domain — the session's security
/// scheme (`user/auth.rs`) and the multipart upload body (`kyc/upload.rs`).
fn is_http_layer(path: &str) -> bool {
    let file = path.rsplit('/').next().unwrap_or(path);
    path.starts_with("http/")
        || path.starts_with("app/")
        || path == "main.rs"
        || file == "api.rs"
        || file.ends_with("_api.rs")
        || file == "ws.rs"
        || path == "user/auth.rs"
        || path == "kyc/upload.rs"
}

fn is_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.contains("/tests/")
}

#[test]
fn no_service_engine_or_ledger_file_uses_poem_or_http() {
    let offenders: Vec<String> = sources()
        .into_iter()
        .filter(|(path, _)| !is_http_layer(path) && !is_test_file(path))
        .filter(|(_, text)| {
            code_lines(text).any(|line| {
                // poem_openapi's derives describe a data shape and are allowed on shared types;
                // poem itself (requests, responses, status codes) and crate::http are not.
                line.contains("poem::")
                    || line.contains("use poem;")
                    || line.contains("use poem::")
                    || line.contains("StatusCode")
                    || line.contains("crate::http")
            })
        })
        .map(|(path, _)| path)
        .collect();
    assert!(
        offenders.is_empty(),
        "outside the HTTP layer these files use poem, a status code or crate::http (return a \
         Refusal and let http/ map it): {offenders:?}"
    );
}

#[test]
fn no_domain_module_imports_the_composition_root() {
    let offenders: Vec<String> = sources()
        .into_iter()
        .filter(|(path, _)| !path.starts_with("app/") && path != "main.rs" && path != "lib.rs")
        .filter(|(_, text)| code_lines(text).any(|line| line.contains("crate::app")))
        .map(|(path, _)| path)
        .collect();
    assert!(
        offenders.is_empty(),
        "these files import crate::app (take what a handler uses as Data<&T>): {offenders:?}"
    );
}

#[test]
fn no_source_file_outgrows_one_job() {
    let offenders: Vec<String> = sources()
        .into_iter()
        .filter(|(path, _)| !is_test_file(path))
        .filter_map(|(path, text)| {
            let lines = text.lines().count();
            (lines > MAX_LINES).then(|| format!("{path} ({lines} lines)"))
        })
        .collect();
    assert!(
        offenders.is_empty(),
        "these files pass {MAX_LINES} lines (split them by responsibility): {offenders:?}"
    );
}

#[test]
fn the_rules_above_see_a_violation() {
    assert!(is_http_layer("funds/deposits_api.rs"));
    assert!(is_http_layer("http/envelope.rs"));
    assert!(!is_http_layer("funds/deposits.rs"));
    assert!(!is_http_layer("futures/engine/triggers.rs"));
    assert!(is_test_file("spot/engine/tests.rs"));
    let sample = "//! poem::Request in a doc\nuse poem::web::Data;\n";
    assert_eq!(
        code_lines(sample).collect::<Vec<_>>(),
        vec!["use poem::web::Data;"]
    );
}
