//! The referral programme (issue 26, part 1): three generations of rebates paid from real trading
//! fees. The tree itself (each invitee's three ancestors, the late bind of a code) is
//! `user::invitation`; here: `rates.rs` the arithmetic of a rebate (pure), `qualify.rs` why a
//! rebate is withheld, `batch.rs` the hourly job that records and pays the rebates of the stored
//! fills in one journal entry per batch, `service.rs` the reward centre's figures, `agents.rs` the
//! agents' own rates; `api.rs` the member calls (reward centre, bind, `agentActivityInfo/*`) and
//! `admin_api.rs` the operator's agent calls. Depends on `funds` (ledger, fees, bill memos) and
//! `user`.

pub mod admin_api;
pub mod agents;
pub mod api;
pub mod batch;
pub mod qualify;
pub mod rates;
pub mod service;
