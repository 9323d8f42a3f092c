//! Runs every JSON vector of `tests/vectors/` against the native core. The same files run against the
//! wasm build in `wasm-vectors.test.mjs`; together they prove native and wasm give identical results.
//!
//! The adapter below takes each export's arguments as JSON, the way the wasm export receives
//! JavaScript values (a missing or `null` optional is absent, numbers are `f64`), and returns the JSON
//! the export returns (`undefined` as `null`) or the error payload it throws. Like the bindings, it
//! only converts and calls one core function.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use wasm_core::CoreError;
use wasm_core::convert::{epoch_ms_from_number, offset_minutes_from_number, precision_from_number};
use wasm_core::format::{self, TickerRowInput};
use wasm_core::money::parse_decimal;

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
const FUNCTIONS: [&str; 8] = [
    "priceChangePercent",
    "formatPercent",
    "formatAmount",
    "formatCompact",
    "formatPrice",
    "formatDateTime",
    "timeZones",
    "formatTickerRows",
];

/// Calls the native equivalent of the wasm export `function`.
fn call(function: &str, args: &Args) -> Result<Value, CoreError> {
    Ok(match function {
        "priceChangePercent" => {
            args.arity(2);
            let amount = parse_decimal(args.string(0))?;
            let open = parse_decimal(args.string(1))?;
            format::price_change_percent(amount, open)
                .map(|p| p.to_string())
                .into()
        }
        "formatPercent" => {
            args.arity(1);
            let percent = args.optional_string(0).map(parse_decimal).transpose()?;
            format::format_percent(percent).into()
        }
        "formatAmount" => {
            args.arity(1);
            format::format_amount(parse_decimal(args.string(0))?).into()
        }
        "formatCompact" => {
            args.arity(1);
            format::format_compact(parse_decimal(args.string(0))?).into()
        }
        "formatPrice" => {
            args.arity(2);
            let value = parse_decimal(args.string(0))?;
            let precision = args
                .optional_number(1)
                .map(precision_from_number)
                .transpose()?;
            format::format_price(value, precision).into()
        }
        "formatDateTime" => {
            args.arity(2);
            let epoch_ms = epoch_ms_from_number(args.number(0))?;
            let offset_minutes = offset_minutes_from_number(args.number(1))?;
            format::format_date_time(epoch_ms, offset_minutes).into()
        }
        "timeZones" => {
            args.arity(0);
            to_json(format::time_zones())
        }
        "formatTickerRows" => {
            args.arity(1);
            // serde_json would also read a row given as an array ([symbol, price, …]) where
            // serde-wasm-bindgen refuses it; vectors keep to objects, the only shape the webapp sends.
            let rows: Vec<TickerRowInput> = serde_json::from_value(args.value(0).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "rows" })?;
            to_json(&format::format_ticker_rows(&rows)?)
        }
        other => panic!("unknown function {other:?}: add it to FUNCTIONS and to this adapter"),
    })
}

fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).expect("core values serialize")
}

/// A case's arguments; a malformed vector file panics with a message rather than testing anything.
struct Args(Vec<Value>);

impl Args {
    fn arity(&self, max: usize) {
        assert!(
            self.0.len() <= max,
            "at most {max} arguments, got {:?}",
            self.0
        );
    }

    /// A missing argument, like JavaScript's `undefined`.
    fn value(&self, i: usize) -> &Value {
        self.0.get(i).unwrap_or(&Value::Null)
    }

    fn string(&self, i: usize) -> &str {
        self.value(i)
            .as_str()
            .unwrap_or_else(|| panic!("argument {i} must be a string: {:?}", self.0))
    }

    fn optional_string(&self, i: usize) -> Option<&str> {
        match self.value(i) {
            Value::Null => None,
            _ => Some(self.string(i)),
        }
    }

    fn number(&self, i: usize) -> f64 {
        self.value(i)
            .as_f64()
            .unwrap_or_else(|| panic!("argument {i} must be a number: {:?}", self.0))
    }

    fn optional_number(&self, i: usize) -> Option<f64> {
        match self.value(i) {
            Value::Null => None,
            _ => Some(self.number(i)),
        }
    }
}

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
            FUNCTIONS.contains(&function),
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
            let actual = call(function, &Args(args.clone())).map_err(|e| to_json(&e));
            cases_run += 1;
            if actual != expected {
                failures.push(format!(
                    "{label}: {function}({})\n  expected {expected:?}\n  actual   {actual:?}",
                    Value::Array(args.clone())
                ));
            }
        }
    }

    let missing: Vec<_> = FUNCTIONS
        .iter()
        .filter(|f| !covered.contains(**f))
        .collect();
    assert!(missing.is_empty(), "no vector file for {missing:?}");
    assert!(
        failures.is_empty(),
        "{} of {cases_run} vectors failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
