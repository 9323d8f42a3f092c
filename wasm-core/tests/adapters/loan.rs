//! Native adapter of the `loan` exports (see `mod.rs`).

use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::convert::{count_from_number, epoch_ms_from_number};
use wasm_core::loan;
use wasm_core::money::parse_decimal;

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &["LoanCalculator", "loanOverduePenalty"];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    (function == "loanOverduePenalty").then(|| {
        args.arity(6);
        let input = loan::OverdueInput {
            amount: parse_decimal(args.string(0))?,
            penalty_day_rate: parse_decimal(args.string(1))?,
            grace_days: count_from_number("graceDays", args.number(2))?,
            due_time: epoch_ms_from_number(args.number(3))?,
            at_time: epoch_ms_from_number(args.number(4))?,
            scale: count_from_number("scale", args.number(5))?,
        };
        Ok(to_json(&loan::overdue_penalty(&input)?))
    })
}

/// Calls the native equivalent of `new LoanCalculator(...construct).method(...args)`.
pub fn call_method(
    class: &str,
    construct: &Args,
    method: &str,
    args: &Args,
) -> Option<Result<Value, CoreError>> {
    (class == "LoanCalculator").then(|| {
        construct.arity(6);
        let terms = loan::LoanTerms {
            principal: parse_decimal(construct.string(0))?,
            day_rate: parse_decimal(construct.string(1))?,
            cycle_days: count_from_number("cycleDays", construct.number(2))?,
            repay_way: construct.string(3).parse()?,
            start_time: epoch_ms_from_number(construct.number(4))?,
            scale: count_from_number("scale", construct.number(5))?,
        };
        loan::loan_schedule(&terms)?;
        match method {
            "schedule" => {
                args.arity(0);
                Ok(to_json(&loan::loan_schedule(&terms)?))
            }
            "earlyRepayment" => {
                args.arity(1);
                let at_time = epoch_ms_from_number(args.number(0))?;
                Ok(to_json(&loan::early_repayment(&terms, at_time)?))
            }
            other => panic!("LoanCalculator has no method {other:?}"),
        }
    })
}
