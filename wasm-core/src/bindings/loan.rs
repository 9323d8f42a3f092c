//! The JavaScript exports of [`crate::loan`]: the `LoanCalculator` class (a loan's terms, read once;
//! `schedule()` and `earlyRepayment(atTime)`) and `loanOverduePenalty`, the figures the loan screens
//! preview and the server charges. Decimals cross as strings, counts and times as numbers; results
//! as one JSON text. Arguments are positional rather than one object: an object reader per input
//! type costs kilobytes of wasm.

use wasm_bindgen::prelude::*;

use super::{throw, to_js};
use crate::convert::{count_from_number, epoch_ms_from_number};
use crate::loan;
use crate::money::parse_decimal;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A loan's repayment way (the t_repay_type dictionary's values). */
export type LoanRepayWay = "maturity" | "interest_daily" | "equal_instalments";
/** One instalment of a loan's schedule; decimals are strings, times milliseconds since the epoch. */
export interface LoanInstalment {
  index: number; dueTime: number; principal: string; interest: string; amount: string; outstanding: string;
}
/** A loan's whole repayment schedule. */
export interface LoanSchedule {
  instalments: LoanInstalment[]; totalInterest: string; totalRepay: string; endTime: number;
}
/** What repaying a loan in full at a moment before its end costs. */
export interface LoanEarlyRepayment {
  atTime: number; paidInstalments: number; principal: string; interest: string; amount: string;
  interestSaved: string;
}
/** An overdue amount's penalty at a moment. */
export interface LoanOverduePenalty {
  daysOverdue: number; penaltyDays: number; penalty: string; amountDue: string;
}
"#;

/// A loan's terms, checked once by the constructor.
#[wasm_bindgen(js_name = LoanCalculator)]
pub struct LoanCalculator {
    terms: loan::LoanTerms,
}

#[wasm_bindgen(js_class = LoanCalculator)]
impl LoanCalculator {
    /// The loan of `principal` at `dayRate` for `cycleDays`, repaid by `repayWay`, borrowed at
    /// `startTime`, in a coin of `scale` decimals; throws what `schedule()` would for bad terms.
    #[wasm_bindgen(constructor)]
    pub fn new(
        principal: &str,
        day_rate: &str,
        cycle_days: f64,
        #[wasm_bindgen(unchecked_param_type = "LoanRepayWay")] repay_way: &str,
        start_time: f64,
        scale: f64,
    ) -> Result<LoanCalculator, JsValue> {
        let terms = loan::LoanTerms {
            principal: parse_decimal(principal).map_err(throw)?,
            day_rate: parse_decimal(day_rate).map_err(throw)?,
            cycle_days: count_from_number("cycleDays", cycle_days).map_err(throw)?,
            repay_way: repay_way.parse().map_err(throw)?,
            start_time: epoch_ms_from_number(start_time).map_err(throw)?,
            scale: count_from_number("scale", scale).map_err(throw)?,
        };
        loan::loan_schedule(&terms).map_err(throw)?;
        Ok(LoanCalculator { terms })
    }

    /// The repayment schedule.
    #[wasm_bindgen(unchecked_return_type = "LoanSchedule")]
    pub fn schedule(&self) -> Result<JsValue, JsValue> {
        to_js(&loan::loan_schedule(&self.terms).map_err(throw)?)
    }

    /// What repaying in full at `atTime` (milliseconds since the epoch) costs.
    #[wasm_bindgen(js_name = earlyRepayment, unchecked_return_type = "LoanEarlyRepayment")]
    pub fn early_repayment(&self, at_time: f64) -> Result<JsValue, JsValue> {
        let at_time = epoch_ms_from_number(at_time).map_err(throw)?;
        to_js(&loan::early_repayment(&self.terms, at_time).map_err(throw)?)
    }
}

/// The penalty at `atTime` of `amount` due at `dueTime`, charged `penaltyDayRate` a day begun after
/// `graceDays`, in a coin of `scale` decimals.
#[wasm_bindgen(js_name = loanOverduePenalty, unchecked_return_type = "LoanOverduePenalty")]
pub fn loan_overdue_penalty(
    amount: &str,
    penalty_day_rate: &str,
    grace_days: f64,
    due_time: f64,
    at_time: f64,
    scale: f64,
) -> Result<JsValue, JsValue> {
    let input = loan::OverdueInput {
        amount: parse_decimal(amount).map_err(throw)?,
        penalty_day_rate: parse_decimal(penalty_day_rate).map_err(throw)?,
        grace_days: count_from_number("graceDays", grace_days).map_err(throw)?,
        due_time: epoch_ms_from_number(due_time).map_err(throw)?,
        at_time: epoch_ms_from_number(at_time).map_err(throw)?,
        scale: count_from_number("scale", scale).map_err(throw)?,
    };
    to_js(&loan::overdue_penalty(&input).map_err(throw)?)
}
