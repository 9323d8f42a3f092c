//! The JavaScript export of [`crate::earn`]: `earnSchedule`, the subscription preview and the
//! early-redemption preview of an earn position. Decimals cross as strings; bad terms throw their
//! `{code, key, params}` payload.

use wasm_bindgen::prelude::*;

use super::{from_js, throw, to_js};
use crate::convert::{MAX_EPOCH_MS, integer_from_number};
use crate::earn::{self, Terms};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** An earn position's terms; decimals are strings, times Unix milliseconds. */
export interface EarnTerms {
  principal: string; rate: string; rateBasis: "daily" | "apr"; subscribedAt: number; days: number;
  flexible?: boolean; keepRewardsOnEarlyRedemption?: boolean;
}
/** One accrual day: its reward (8 decimals, rounded down) is paid on payDate. */
export interface EarnScheduleDay {
  day: number; accrualDate: number; payDate: number; reward: string; paidTotal: string; residue: string;
}
/** What redeeming at `at` returns. */
export interface EarnRedemption {
  at: number; early: boolean; paidDays: number; rewardsPaid: string; deduction: string; returned: string;
}
/** A position's whole schedule. */
export interface EarnSchedule {
  valueDate: number; firstPayoutDate: number; lastAccrualDate: number; deliveryDate: number | null;
  dailyAccrual: string; estimatedDaily: string; totalReward: string; residue: string;
  days: EarnScheduleDay[]; redemption: EarnRedemption | null;
}
"#;

/// The schedule of a position with `terms` and, when `at` is given, what redeeming then returns.
#[wasm_bindgen(js_name = earnSchedule, unchecked_return_type = "EarnSchedule")]
pub fn earn_schedule(
    #[wasm_bindgen(unchecked_param_type = "EarnTerms")] terms: JsValue,
    at: Option<f64>,
) -> Result<JsValue, JsValue> {
    let terms: Terms = from_js("terms", terms)?;
    let at = at
        .map(|at| integer_from_number("at", at, 0, MAX_EPOCH_MS))
        .transpose()
        .map_err(throw)?;
    to_js(&earn::earn_schedule(&terms, at).map_err(throw)?)
}
