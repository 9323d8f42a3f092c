//! The native adapter of every wasm export: takes the export's arguments as JSON, the way the wasm
//! export receives JavaScript values (a missing or `null` optional is absent, numbers are `f64`),
//! and returns the JSON the export returns (`undefined` as `null`) or the error payload it throws.
//! A class's cases give its constructor's arguments and then a method and its arguments
//! ([`call_method`]). Like the bindings, each adapter only converts and calls one core function. One file per core
//! module; add a module's adapter to `MODULES`.

use serde_json::Value;
use wasm_core::CoreError;

pub mod earn;
pub mod format;
pub mod funds;
pub mod kline;
pub mod loan;
pub mod margin;
pub mod validate;

/// What an adapter returns: the export's JSON result or its error; `None` for an unknown export.
pub type Outcome = Option<Result<Value, CoreError>>;

/// A module's exports and its adapter.
pub struct Module {
    /// The JavaScript names of the module's exports.
    pub functions: &'static [&'static str],
    /// Calls the export `function`; `None` when the module has no such export.
    pub call: fn(&str, &Args) -> Option<Result<Value, CoreError>>,
    /// Constructs the class `class` with the first arguments, then calls its method `method` with
    /// the second; `None` when the module has no such class. A constructor's error is the result.
    pub call_method: fn(&str, &Args, &str, &Args) -> Outcome,
}

/// `call_method` of a module without classes.
fn no_classes(_: &str, _: &Args, _: &str, _: &Args) -> Outcome {
    None
}

/// Every module with exports.
pub const MODULES: &[Module] = &[
    Module {
        functions: format::FUNCTIONS,
        call: format::call,
        call_method: no_classes,
    },
    Module {
        functions: margin::FUNCTIONS,
        call: margin::call,
        call_method: margin::call_method,
    },
    Module {
        functions: validate::FUNCTIONS,
        call: validate::call,
        call_method: no_classes,
    },
    Module {
        functions: kline::FUNCTIONS,
        call: kline::call,
        call_method: no_classes,
    },
    Module {
        functions: earn::FUNCTIONS,
        call: earn::call,
        call_method: no_classes,
    },
    Module {
        functions: funds::FUNCTIONS,
        call: funds::call,
        call_method: no_classes,
    },
    Module {
        functions: loan::FUNCTIONS,
        call: loan::call,
        call_method: loan::call_method,
    },
];

/// Every export of the wasm build, by its JavaScript name.
pub fn functions() -> Vec<&'static str> {
    MODULES
        .iter()
        .flat_map(|m| m.functions.iter().copied())
        .collect()
}

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Result<Value, CoreError> {
    MODULES
        .iter()
        .find_map(|module| (module.call)(function, args))
        .unwrap_or_else(|| panic!("unknown function {function:?}: add it to an adapter module"))
}

/// Constructs the class `class` with `construct`, then calls its method `method` with `args`.
pub fn call_method(
    class: &str,
    construct: &Args,
    method: &str,
    args: &Args,
) -> Result<Value, CoreError> {
    MODULES
        .iter()
        .find_map(|module| (module.call_method)(class, construct, method, args))
        .unwrap_or_else(|| panic!("unknown class {class:?}: add it to an adapter module"))
}

/// Constructs the class `class` with `construct`, writes `write`'s numbers into the typed-array
/// views its keys name, calls its method `method` with `args`, and returns
/// `{"returned": <the method's result>, <read>: <the view read as an array>}` (the vector runners'
/// path for buffer classes such as `KlineBuffer`).
pub fn call_buffer_method(
    class: &str,
    construct: &Args,
    write: &serde_json::Map<String, Value>,
    method: &str,
    args: &Args,
    read: &str,
) -> Result<Value, CoreError> {
    kline::call_buffer_method(class, construct, write, method, args, read)
        .unwrap_or_else(|| panic!("unknown buffer class {class:?}: add it to an adapter module"))
}

pub fn to_json<T: serde::Serialize + ?Sized>(value: &T) -> Value {
    serde_json::to_value(value).expect("core values serialize")
}

/// A case's arguments; a malformed vector file panics with a message rather than testing anything.
pub struct Args(pub Vec<Value>);

impl Args {
    pub fn arity(&self, max: usize) {
        assert!(
            self.0.len() <= max,
            "at most {max} arguments, got {:?}",
            self.0
        );
    }

    /// A missing argument, like JavaScript's `undefined`.
    pub fn value(&self, i: usize) -> &Value {
        self.0.get(i).unwrap_or(&Value::Null)
    }

    pub fn string(&self, i: usize) -> &str {
        self.value(i)
            .as_str()
            .unwrap_or_else(|| panic!("argument {i} must be a string: {:?}", self.0))
    }

    pub fn optional_string(&self, i: usize) -> Option<&str> {
        match self.value(i) {
            Value::Null => None,
            _ => Some(self.string(i)),
        }
    }

    pub fn number(&self, i: usize) -> f64 {
        self.value(i)
            .as_f64()
            .unwrap_or_else(|| panic!("argument {i} must be a number: {:?}", self.0))
    }

    pub fn optional_number(&self, i: usize) -> Option<f64> {
        match self.value(i) {
            Value::Null => None,
            _ => Some(self.number(i)),
        }
    }
}
