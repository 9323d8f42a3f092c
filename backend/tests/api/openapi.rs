//! The committed `openapi/openapi.json` is what the code describes (run `make openapi` when not).

#[test]
fn the_committed_openapi_document_is_fresh() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../openapi/openapi.json");
    let committed = std::fs::read_to_string(path).expect("openapi/openapi.json exists");
    let current = backend::app::openapi_json() + "\n";
    assert!(
        committed == current,
        "openapi/openapi.json is stale: run `make openapi` (backend export-openapi) and commit it"
    );
}
