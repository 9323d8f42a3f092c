//! HTTP of the test clock: `POST /api/admin/test/clock/advance` moves the clock of day-based
//! rules (earn accrual) ahead, so that the e2e suite crosses days without waiting. Served only
//! when `test_clock` is on in the configuration (`EXCHANGE_TEST_CLOCK=true`, set by
//! `e2e/playwright.config.ts`); a default server answers 404. Operators only. Not part of the
//! public OpenAPI document.

use poem::web::Data;
use poem_openapi::{Object, OpenApi, OpenApiService, Tags};
use serde::Deserialize;

use crate::clock::{Clock, DAY_MS};
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Test-only operator calls (served only with `test_clock` on).
    TestClock,
}

/// The test clock's call.
pub struct TestClockApi;

/// How far to move the clock.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdvanceRequest {
    /// Days ahead, 0 to 3,650.
    #[serde(default)]
    #[oai(default, validator(minimum(value = "0"), maximum(value = "3650")))]
    pub days: u32,
    /// Milliseconds ahead besides the days, 0 to one day.
    #[serde(default)]
    #[oai(default, validator(minimum(value = "0"), maximum(value = "86400000")))]
    pub ms: u32,
}

/// The clock after the move.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ClockState {
    /// Now, as the day-based rules read it, epoch ms.
    pub now: i64,
    /// How far that is ahead of the wall clock, ms.
    pub offset_ms: i64,
}

#[OpenApi(tag = "ApiTags::TestClock")]
impl TestClockApi {
    /// Moves the clock of day-based rules `days` days and `ms` milliseconds ahead (never back).
    #[oai(
        path = "/api/admin/test/clock/advance",
        method = "post",
        operation_id = "adminAdvanceTestClock"
    )]
    async fn advance(
        &self,
        Data(clock): Data<&Clock>,
        auth: Satoken,
        body: JsonBody<AdvanceRequest>,
    ) -> MemberResponse<ClockState> {
        let result = (|| {
            require_operator(&auth.0.user)?;
            clock.advance(i64::from(body.0.days) * DAY_MS + i64::from(body.0.ms));
            Ok::<_, Refusal>(ClockState {
                now: clock.now_ms(),
                offset_ms: clock.offset_ms(),
            })
        })();
        MemberResponse::of(result, Msg::Success)
    }
}

/// The service of [`TestClockApi`], nested under `/api/admin/test` when the flag is on.
pub fn service() -> OpenApiService<TestClockApi, ()> {
    OpenApiService::new(
        TestClockApi,
        "Kestrel Exchange test clock",
        env!("CARGO_PKG_VERSION"),
    )
}
