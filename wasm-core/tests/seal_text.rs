//! The cipher vectors (`tests/cipher/seal-text.json`) against the native core's `cipher::seal_text`.
//! The webapp seals with WebCrypto (`webapp/src/lib/seal.ts`) and runs the same file, so the
//! browser's sealed payload is byte for byte the one this module makes and the server opens.

use std::fs;
use std::path::Path;

use serde_json::Value;
use wasm_core::cipher;

#[test]
fn seal_text_vectors() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cipher/seal-text.json");
    let file: Value = serde_json::from_str(&fs::read_to_string(path).unwrap()).unwrap();
    let cases = file["cases"].as_array().unwrap();
    assert!(cases.len() > 5);
    for case in cases {
        let args: Vec<&str> = case["args"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a.as_str().unwrap())
            .collect();
        let actual = cipher::seal_text(args[0], args[1], args[2], args[3])
            .map(Value::from)
            .map_err(|e| serde_json::to_value(e).unwrap());
        let expected = match (case.get("expect"), case.get("error")) {
            (Some(value), None) => Ok(value.clone()),
            (None, Some(error)) => Err(error.clone()),
            _ => panic!("{}: needs exactly one of expect and error", case["name"]),
        };
        assert_eq!(actual, expected, "{}", case["name"]);
    }
}
