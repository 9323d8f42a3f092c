//! Runs every JSON vector of `tests/vectors/` against the native core. The same files run against the
//! wasm build in `wasm-vectors.test.mjs`; together they prove native and wasm give identical results.
//! The per-module adapters live in `tests/adapters/`. A buffer class's case (`KlineBuffer`) also
//! gives "write", numbers to write into its typed-array views before the call, and "read", the view
//! whose numbers the expected `{"returned", <read>}` holds after it.

mod adapters;

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use adapters::{Args, call, call_buffer_method, call_method, functions, to_json};
use serde_json::{Map, Value};

fn vector_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .collect();
    files.sort();
    files
}

#[test]
fn every_vector_matches_the_native_core() {
    let mut covered = BTreeSet::new();
    let mut failures = Vec::new();
    let mut cases_run = 0;

    for path in vector_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let file: Map<String, Value> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: invalid JSON: {e}"));
        let function = file["function"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: \"function\" must be a string"));
        assert!(
            functions().contains(&function),
            "{name}: unknown function {function:?}"
        );
        covered.insert(function.to_owned());
        let cases = file["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: \"cases\" must be an array"));
        assert!(!cases.is_empty(), "{name}: no cases");

        for (index, case) in cases.iter().enumerate() {
            let label = format!(
                "{name} case {index} ({})",
                case["name"].as_str().unwrap_or("unnamed")
            );
            let args = case["args"]
                .as_array()
                .unwrap_or_else(|| panic!("{label}: \"args\" must be an array"));
            let expected = match (case.get("expect"), case.get("error")) {
                (Some(value), None) => Ok(value.clone()),
                (None, Some(error)) => Err(error.clone()),
                _ => panic!("{label}: needs exactly one of \"expect\" and \"error\""),
            };
            // A class's case constructs it with "construct", then calls "method" with "args".
            let actual = match (case.get("construct"), case.get("method")) {
                (None, None) => call(function, &Args(args.clone())),
                (Some(Value::Array(construct)), Some(Value::String(method))) => {
                    match (case.get("write"), case.get("read")) {
                        (None, None) => call_method(
                            function,
                            &Args(construct.clone()),
                            method,
                            &Args(args.clone()),
                        ),
                        // A buffer class: numbers written into its views, one view read after.
                        (Some(Value::Object(write)), Some(Value::String(read))) => {
                            call_buffer_method(
                                function,
                                &Args(construct.clone()),
                                write,
                                method,
                                &Args(args.clone()),
                                read,
                            )
                        }
                        _ => panic!("{label}: \"write\" (an object) and \"read\" go together"),
                    }
                }
                _ => panic!("{label}: \"construct\" (an array) and \"method\" go together"),
            }
            .map_err(|e| to_json(&e));
            cases_run += 1;
            if actual != expected {
                failures.push(format!(
                    "{label}: {function}({})\n  expected {expected:?}\n  actual   {actual:?}",
                    Value::Array(args.clone())
                ));
            }
        }
    }

    let missing: Vec<_> = functions()
        .into_iter()
        .filter(|f| !covered.contains(*f))
        .collect();
    assert!(missing.is_empty(), "no vector file for {missing:?}");
    assert!(
        failures.is_empty(),
        "{} of {cases_run} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
