//! The committed `openapi/openapi.json` is what the code describes (run `make openapi` when not),
//! and the running server serves the same document and a browsable reference of it.

use crate::helpers::spawn_app;

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

#[tokio::test]
async fn the_server_serves_the_document_and_its_browsable_reference() {
    let app = spawn_app().await;
    let served = app
        .client
        .get(format!("{}/api/openapi.json", app.base))
        .send()
        .await
        .expect("the document answers");
    assert_eq!(served.status(), 200);
    let served: serde_json::Value = served.json().await.expect("the document is JSON");
    let committed: serde_json::Value =
        serde_json::from_str(&backend::app::openapi_json()).expect("the document is JSON");
    assert_eq!(served, committed);

    let page = app
        .client
        .get(format!("{}/api/docs", app.base))
        .send()
        .await
        .expect("the reference answers");
    assert_eq!(page.status(), 200);
    assert!(
        page.headers()[reqwest::header::CONTENT_TYPE]
            .to_str()
            .unwrap()
            .starts_with("text/html")
    );
    let html = page.text().await.expect("the reference page");
    assert!(
        html.contains("SwaggerUIBundle"),
        "the Swagger UI is on the page"
    );
    assert!(
        html.contains("Kestrel Exchange API"),
        "the page carries the document"
    );
}
