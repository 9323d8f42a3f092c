//! HTTP of the operator's deposit and withdrawal review: `POST /api/admin/deposits`,
//! `POST /api/admin/deposits/{id}/review`, `POST /api/admin/withdrawals` and
//! `POST /api/admin/withdrawals/{id}/review`. Each needs a session of an account with the
//! `operator` role (403 otherwise, as for identity review); the rules — the conditional
//! `review → passed|failed` update and the ledger entries in its transaction — live in
//! [`crate::funds::deposits`] and [`crate::funds::withdrawals`].

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Path};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use std::sync::Arc;

use crate::clock::{Clock, now_ms};
use crate::config::Config;
use crate::entity::{deposit, withdrawal};
use crate::funds::deposits::{self, Decision, ListFilter, PaymentStatus};
use crate::funds::deposits_api::DepositRecord;
use crate::funds::withdrawals;
use crate::funds::withdrawals_api::WithdrawalRecord;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::market::MarketHub;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::tiers::FeeDiscounts;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: deposit and withdrawal review.
    AdminFunds,
}

/// The operator's deposit and withdrawal calls.
pub struct AdminFundsApi;

/// Which deposits or withdrawals an operator lists.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct AdminPaymentListRequest {
    /// Only this status (`review` for the queue); all when absent.
    pub status: Option<PaymentStatus>,
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
}

/// A deposit as an operator reviews it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminDepositRecord {
    /// Deposit id.
    pub id: i64,
    /// The claimant.
    pub user_id: i64,
    /// The claimant's login e-mail, else phone.
    pub account: String,
    /// Asset, lower case.
    pub coin: String,
    /// Network.
    pub network: String,
    /// The platform's address it was paid to.
    pub address: String,
    /// Amount claimed.
    pub amount: Decimal,
    /// The screenshot's `fileId`, as text.
    pub screenshot: String,
    /// A link to the screenshot, valid 5 minutes.
    pub screenshot_url: String,
    /// Where it stands.
    pub status: PaymentStatus,
    /// Why it failed.
    pub reason: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// The journal entry that credited it.
    pub entry_id: Option<i64>,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

/// A page of deposits for review, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminDepositPage {
    /// Deposits matching the filter, over all pages.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The deposits.
    pub records: Vec<AdminDepositRecord>,
}

/// A withdrawal as an operator reviews it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminWithdrawalRecord {
    /// Withdrawal id.
    pub id: i64,
    /// The user.
    pub user_id: i64,
    /// The user's login e-mail, else phone.
    pub account: String,
    /// Asset, lower case.
    pub coin: String,
    /// Network.
    pub network: String,
    /// Destination address.
    pub address: String,
    /// What leaves the balance, fee included.
    pub amount: Decimal,
    /// The withdrawal fee.
    pub fee: Decimal,
    /// What arrives (`amount − fee`): the amount to send.
    pub received: Decimal,
    /// Where it stands.
    pub status: PaymentStatus,
    /// Why it failed.
    pub reason: Option<String>,
    /// The network transaction, once passed.
    pub tx_hash: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// The entry that held the amount (funding → frozen).
    pub hold_entry_id: i64,
    /// The review's entry (sent or returned).
    pub settle_entry_id: Option<i64>,
    /// The fee's entry.
    pub fee_entry_id: Option<i64>,
    /// Submitted, Unix milliseconds.
    pub created_at: i64,
    /// Reviewed, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

/// A page of withdrawals for review, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminWithdrawalPage {
    /// Withdrawals matching the filter, over all pages.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The withdrawals.
    pub records: Vec<AdminWithdrawalRecord>,
}

/// An operator's decision on a deposit.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct DepositReviewRequest {
    /// `true` credits it, `false` fails it.
    pub approve: bool,
    /// Why it fails: required to fail it, at most 500 characters; the user sees it.
    #[oai(validator(max_length = 1000))]
    pub reason: Option<String>,
}

/// An operator's decision on a withdrawal.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct WithdrawalReviewRequest {
    /// `true`: it was sent (give `txHash`); `false`: fail it and return the amount.
    pub approve: bool,
    /// The network transaction that sent it: required to pass it, 1 to 128 characters.
    #[oai(validator(max_length = 1000))]
    pub tx_hash: Option<String>,
    /// Why it fails: required to fail it, at most 500 characters; the user sees it.
    #[oai(validator(max_length = 1000))]
    pub reason: Option<String>,
}

fn admin_deposit(
    row: deposit::Model,
    account: Option<&String>,
    key: &[u8; 32],
    now: i64,
) -> AdminDepositRecord {
    let record = DepositRecord::of(&row, key, now);
    AdminDepositRecord {
        id: row.id,
        user_id: row.user_id,
        account: account.cloned().unwrap_or_default(),
        coin: record.coin,
        network: record.network,
        address: record.address,
        amount: record.amount,
        screenshot: record.screenshot,
        screenshot_url: record.screenshot_url,
        status: record.status,
        reason: record.reason,
        reviewed_by: row.reviewed_by,
        entry_id: row.entry_id,
        created_at: row.created_at,
        reviewed_at: row.reviewed_at,
    }
}

fn admin_withdrawal(row: withdrawal::Model, account: Option<&String>) -> AdminWithdrawalRecord {
    let record = WithdrawalRecord::of(&row);
    AdminWithdrawalRecord {
        id: row.id,
        user_id: row.user_id,
        account: account.cloned().unwrap_or_default(),
        coin: record.coin,
        network: record.network,
        address: record.address,
        amount: record.amount,
        fee: record.fee,
        received: record.received,
        status: record.status,
        reason: record.reason,
        tx_hash: record.tx_hash,
        reviewed_by: row.reviewed_by,
        hold_entry_id: row.hold_entry_id,
        settle_entry_id: row.settle_entry_id,
        fee_entry_id: row.fee_entry_id,
        created_at: row.created_at,
        reviewed_at: row.reviewed_at,
    }
}

#[OpenApi(tag = "ApiTags::AdminFunds")]
impl AdminFundsApi {
    /// Deposits, newest first, optionally of one status (operators only), with each claimant's
    /// account and a 5-minute link to the screenshot.
    #[oai(
        path = "/api/admin/deposits",
        method = "post",
        operation_id = "adminListDeposits"
    )]
    async fn list_deposits(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: JsonBody<Option<AdminPaymentListRequest>>,
    ) -> MemberResponse<AdminDepositPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            require_operator(&auth.0.user)?;
            let Paging { page, page_size } = Paging::new(body.page, body.page_size);
            let filter = ListFilter {
                status: body.status,
                ..ListFilter::default()
            };
            let (total, rows) = deposits::list(db, &filter, page, page_size).await?;
            let accounts = deposits::accounts(db, rows.iter().map(|r| r.user_id)).await?;
            let now = now_ms();
            Ok::<_, Refusal>(AdminDepositPage {
                total,
                page,
                page_size,
                records: rows
                    .into_iter()
                    .map(|row| {
                        let account = accounts.get(&row.user_id);
                        admin_deposit(row, account, link_key, now)
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Passes (credits the user's funding from deposits in transit) or fails (with a reason the
    /// user sees) a deposit under review (operators only, never their own). A deposit reviewed
    /// already is 409.
    #[oai(
        path = "/api/admin/deposits/:id/review",
        method = "post",
        operation_id = "adminReviewDeposit"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn review_deposit(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(link_key): Data<&LinkKey>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(config): Data<&Arc<Config>>,
        Data(clock): Data<&Clock>,
        Data(discounts): Data<&Arc<FeeDiscounts>>,
        auth: Satoken,
        /// The deposit's id.
        id: Path<i64>,
        body: JsonBody<DepositReviewRequest>,
    ) -> MemberResponse<DepositRecord> {
        let body = body.0;
        let decision = Decision {
            id: id.0,
            approve: body.approve,
            reason: body.reason,
        };
        let result = deposits::review(db, &auth.0.user, &decision).await;
        if let Ok(row) = &result
            && row.status == PaymentStatus::Passed.as_str()
        {
            // A credit moves the owner's account tier at once (not at the next job run).
            crate::tiers::service::after_deposit(
                db,
                hub,
                &config.tiers,
                discounts,
                row.user_id,
                clock.now_ms(),
            )
            .await;
        }
        let result = result.map(|row| DepositRecord::of(&row, link_key, now_ms()));
        MemberResponse::of(result, Msg::Reviewed)
    }

    /// Withdrawals, newest first, optionally of one status (operators only), with each user's
    /// account and the journal entries of each.
    #[oai(
        path = "/api/admin/withdrawals",
        method = "post",
        operation_id = "adminListWithdrawals"
    )]
    async fn list_withdrawals(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<Option<AdminPaymentListRequest>>,
    ) -> MemberResponse<AdminWithdrawalPage> {
        let body = body.0.unwrap_or_default();
        let result = async {
            require_operator(&auth.0.user)?;
            let Paging { page, page_size } = Paging::new(body.page, body.page_size);
            let filter = ListFilter {
                status: body.status,
                ..ListFilter::default()
            };
            let (total, rows) = withdrawals::list(db, &filter, page, page_size).await?;
            let accounts = deposits::accounts(db, rows.iter().map(|r| r.user_id)).await?;
            Ok::<_, Refusal>(AdminWithdrawalPage {
                total,
                page,
                page_size,
                records: rows
                    .into_iter()
                    .map(|row| {
                        let account = accounts.get(&row.user_id);
                        admin_withdrawal(row, account)
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Passes (it was sent: `txHash` required; `received` leaves frozen for withdrawals in transit
    /// and the fee for the house's fees) or fails (a reason required; the whole amount returns to
    /// funding) a withdrawal under review (operators only, never their own). A withdrawal
    /// reviewed already is 409.
    #[oai(
        path = "/api/admin/withdrawals/:id/review",
        method = "post",
        operation_id = "adminReviewWithdrawal"
    )]
    async fn review_withdrawal(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The withdrawal's id.
        id: Path<i64>,
        body: JsonBody<WithdrawalReviewRequest>,
    ) -> MemberResponse<WithdrawalRecord> {
        let body = body.0;
        let decision = Decision {
            id: id.0,
            approve: body.approve,
            reason: body.reason,
        };
        let result = withdrawals::review(db, &auth.0.user, &decision, body.tx_hash.as_deref())
            .await
            .map(|row| WithdrawalRecord::of(&row));
        MemberResponse::of(result, Msg::Reviewed)
    }
}
