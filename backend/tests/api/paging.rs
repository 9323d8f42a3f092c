//! Paging of every list call (`backend::paging`): the calls are found in the OpenAPI document (every
//! operation with a `page` or `pageSize` query parameter or body property), so a new list is covered
//! without being named here. Out of bounds (a page beyond 1,000,000, the largest signed 64-bit
//! integer, zero, negative; a size of 0, -1, 101 or huge) is refused as invalid naming the field;
//! the last page allowed answers an empty page. Before the bound, a huge page overflowed the row
//! offset and answered 500.

use serde_json::{Value, json};

use crate::helpers::spawn_app;
use crate::kyc::operator;

/// A list call of the document: method, path (with `{head}` and the earn list's `{type}` filled
/// in) and where paging goes.
/// Lists of an object the caller must own (the merchant's customers): 404 for anyone else.
const CALLERS_OBJECT_LISTS: [&str; 1] = ["/api/merchant/customers"];

struct ListCall {
    method: String,
    path: String,
    in_query: bool,
    /// The body's other required fields (an object's id, e.g. a statement's position): sent as 1.
    names_object: Vec<String>,
}

fn list_calls() -> Vec<ListCall> {
    let doc: Value = serde_json::from_str(&backend::app::openapi_json()).expect("JSON");
    let schemas = &doc["components"]["schemas"];
    let mut calls = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            let in_query = op["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|p| p["name"] == "page");
            let body = op["requestBody"]["content"]
                .as_object()
                .and_then(|content| content.values().next())
                .map_or(&Value::Null, |media| &media["schema"]);
            let body = match body["$ref"].as_str() {
                Some(reference) => &schemas[reference.rsplit('/').next().unwrap_or_default()],
                None => body,
            };
            let in_body = body["properties"]["page"].is_object();
            let names_object = body["required"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .filter(|name| !["page", "pageSize"].contains(name))
                .map(str::to_owned)
                .collect();
            if in_query || in_body {
                calls.push(ListCall {
                    method: method.clone(),
                    path: path.replace("{head}", "coin").replace("{type}", "pledge"),
                    in_query,
                    names_object,
                });
            }
        }
    }
    calls
}

async fn call(
    app: &crate::helpers::TestApp,
    token: &str,
    list: &ListCall,
    paging: &[(&str, &str)],
) -> (u16, Value) {
    if list.in_query {
        let query: Vec<String> = paging.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let path = format!("{}?{}", list.path, query.join("&"));
        if list.method == "get" {
            app.get_as(token, &path).await
        } else {
            app.post_as(token, &path, None).await
        }
    } else {
        // Numbers go into the body as JSON numbers, raw (even beyond 64 bits).
        let fields: Vec<String> = paging
            .iter()
            .map(|(k, v)| format!("\"{k}\":{v}"))
            .chain(list.names_object.iter().map(|k| format!("\"{k}\":1")))
            .collect();
        let body = format!("{{{}}}", fields.join(","));
        app.post(&list.path, Some(&body), &[("satoken", token)])
            .await
    }
}

#[tokio::test]
async fn every_list_refuses_a_page_out_of_bounds_and_answers_the_last_page_empty() {
    let app = spawn_app().await;
    let token = operator(&app, "pages@example.com").await;
    let calls = list_calls();
    assert!(calls.len() >= 15, "only {} list calls found", calls.len());
    let out_of_bounds: [(&str, &str, &str); 10] = [
        ("page", "9223372036854775807", "pageSize"),
        ("page", "18446744073709551615", "pageSize"),
        ("page", "1000001", "pageSize"),
        ("page", "0", "pageSize"),
        ("page", "-1", "pageSize"),
        ("pageSize", "9223372036854775807", "page"),
        ("pageSize", "101", "page"),
        ("pageSize", "0", "page"),
        ("pageSize", "-1", "page"),
        ("pageSize", "99999999999999999999999", "page"),
    ];
    for list in &calls {
        let name = format!("{} {}", list.method, list.path);
        for (field, value, other) in out_of_bounds {
            let (status, body) = call(&app, &token, list, &[(field, value), (other, "1")]).await;
            assert_eq!(status, 400, "{name} {field}={value}: {body}");
            assert_eq!(body["code"], 400, "{name} {field}={value}: {body}");
            assert_eq!(
                body["data"]["field"], field,
                "{name} {field}={value}: {body}"
            );
        }
        let (status, body) = call(
            &app,
            &token,
            list,
            &[("page", "1000000"), ("pageSize", "100")],
        )
        .await;
        if (!list.names_object.is_empty() || CALLERS_OBJECT_LISTS.contains(&list.path.as_str()))
            && status == 404
        {
            // A list of one object's lines (a statement's position, the caller's merchant): the
            // operator owns no such object, and says so.
            assert_eq!(body["code"], 404, "{name} last page: {body}");
            continue;
        }
        assert_eq!(status, 200, "{name} last page: {body}");
        let data = &body["data"];
        let rows = data["records"].as_array().or(data["list"].as_array());
        assert!(
            rows.is_some_and(Vec::is_empty),
            "{name} last page is not empty: {body}"
        );
        if data.get("page").is_some() {
            assert_eq!(data["page"], json!(1_000_000), "{name}: {body}");
        }
    }
    app.stop().await;
}

/// Every `page` and `pageSize` the document declares (query parameters and body properties)
/// carries exactly the bounds above, so the document says what the server accepts.
#[test]
fn every_list_call_declares_the_bounds() {
    let doc: serde_json::Value =
        serde_json::from_str(&backend::app::openapi_json()).expect("the document is JSON");
    let mut declared = Vec::new();
    for (path, item) in doc["paths"].as_object().expect("paths") {
        for (method, op) in item.as_object().expect("operations") {
            for param in op["parameters"].as_array().into_iter().flatten() {
                let name = param["name"].as_str().unwrap_or_default();
                declared.push((
                    format!("{method} {path} {name}"),
                    name.to_owned(),
                    param["schema"].clone(),
                ));
            }
        }
    }
    for (name, schema) in doc["components"]["schemas"].as_object().expect("schemas") {
        for (field, property) in schema["properties"].as_object().into_iter().flatten() {
            // Answers echo the page they hold; only requests declare bounds.
            if schema["required"]
                .as_array()
                .is_some_and(|r| r.iter().any(|f| f == field))
            {
                continue;
            }
            declared.push((format!("{name}.{field}"), field.clone(), property.clone()));
        }
    }
    let mut seen = 0;
    for (place, name, schema) in declared {
        let max = match name.as_str() {
            "page" => backend::paging::MAX_PAGE,
            "pageSize" => backend::paging::MAX_PAGE_SIZE,
            _ => continue,
        };
        seen += 1;
        // The spec's form call also takes -521, meaning "all" (bounded by the largest page;
        // tests/api/content.rs refuses every other value below 1).
        let minimum = if place == "get /api/{head}/cgform-api/getData/{form} pageSize" {
            -521.0
        } else {
            1.0
        };
        assert_eq!(
            schema["minimum"].as_f64(),
            Some(minimum),
            "{place}: minimum"
        );
        assert_eq!(
            schema["maximum"].as_f64(),
            Some(max as f64),
            "{place}: maximum"
        );
    }
    assert!(seen >= 20, "only {seen} page declarations found");
}
