//! HTTP of what a user reads about their money (member area `/api/{head}/coin/`): bills
//! (`assets/getMyBill`, CSV by `assets/getMyBillCsv`), balances valued in USDT and BTC
//! (`assets/getWalletAccount`, `assets/getMyBalance?type=`, `assets/getCurrencyAccount`), the USDT
//! rate of each asset (`assets/getCoinRate`, public), moves between the user's own buckets
//! (`wallet/trans`) and earn income (`POST /api/financial/personalIncome`). The rules are in
//! [`super::reports`].

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Path, Query},
};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::bill_detail::{self, BillDetail};
use super::ledger::Bucket;
use super::prices::{Rates, Valuation};
use super::reports::{self, BillFilter, BillRow, ValuedCoin};
use crate::clock::now_ms;
use crate::config::Config;
use crate::http::{JsonBody, LookupResponse, MemberResponse, check_head};
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Bills, valued balances, rates and income.
    Reports,
}

/// The funds reports.
pub struct ReportsApi;

/// A user bucket a report may be limited to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum ReportBucket {
    /// Funding (spot wallet), available.
    Funding,
    /// Trading (futures margin).
    Trading,
    /// Earn.
    Earn,
    /// Held for pending withdrawals and open orders.
    Frozen,
}

impl ReportBucket {
    fn bucket(self) -> Bucket {
        match self {
            ReportBucket::Funding => Bucket::Funding,
            ReportBucket::Trading => Bucket::Trading,
            ReportBucket::Earn => Bucket::Earn,
            ReportBucket::Frozen => Bucket::Frozen,
        }
    }
}

/// The bills to read; every filter is optional.
#[derive(Debug, Object, Default, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct BillQuery {
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
    /// Only this asset (`usdt`), any case.
    #[oai(validator(max_length = 16))]
    pub coin: Option<String>,
    /// Only this kind: `deposit`, `withdrawal`, `withdrawal_refund`, `fee`, `bucket_transfer`,
    /// `user_transfer`, `exchange`, `spot_trade`, `spot_freeze`, `spot_release`, `seconds_stake`,
    /// `seconds_settle`, `earn_income`, `futures_fill`, `futures_margin`, `futures_hold`,
    /// `futures_release`, `futures_funding`, `futures_liquidation`, `loan_disburse`, `loan_repay`;
    /// or `futures` for every futures kind.
    #[oai(validator(max_length = 32, pattern = "^[a-z_]+$"))]
    pub kind: Option<String>,
    /// Only this bucket.
    pub bucket: Option<ReportBucket>,
    /// From this time, unix ms (inclusive).
    #[oai(validator(minimum(value = "0")))]
    pub start_time: Option<i64>,
    /// Until this time, unix ms (exclusive).
    #[oai(validator(minimum(value = "0")))]
    pub end_time: Option<i64>,
}

/// One change of one of the user's balances.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct Bill {
    /// The posting (unique per row).
    pub id: i64,
    /// The journal entry (a conversion shows as two rows of one entry).
    pub entry_id: i64,
    /// What happened: `deposit`, `withdrawal`, `exchange`, …
    pub kind: String,
    /// Asset.
    pub coin: String,
    /// The bucket changed: `funding`, `trading`, `earn` or `frozen`.
    pub bucket: String,
    /// Signed amount: positive credits the bucket.
    pub amount: Decimal,
    /// The bucket's balance after it.
    pub balance: Decimal,
    /// The journal's note (an audit text in English, not for screens: they word `detail`).
    pub memo: String,
    /// What the bill is about, as data to word in the reader's language; absent only when the
    /// entry has nothing more to say than its kind (earn income, internal kinds).
    #[oai(skip_serializing_if_is_none)]
    pub detail: Option<BillDetails>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// What a bill is about; which fields are present depends on its kind (absent ones are omitted):
/// futures kinds and `spot_trade` — `symbol` and the fill's `side`/`quantity`/`price`, a funding
/// `rate`, a margin `direction` (`add`/`remove`), a released `orderId` and `reason`; `deposit` —
/// `network`; `withdrawal` — `stage` (`held`/`sent`), `address`, `network`; `fee` — `feeOf`
/// (`withdrawal`), `network`; `withdrawal_refund` — `address`, `network`; `bucket_transfer` —
/// `fromBucket`, `toBucket`; `user_transfer` — `direction` (`sent`/`received`) and
/// `counterparty`; `exchange` — `fromCoin`, `fromAmount`, `toCoin`, `toAmount`; `spot_freeze` and
/// `spot_release` — `orderId` and `symbol`; `seconds_stake` — `symbol`, `direction` (`up`/`down`),
/// `periodSeconds`, `price` (opening); `seconds_settle` — the same with `orderId`, `result`, `price`
/// (settling) and `openPrice`; `loan_disburse` — `loanId`, `principal`; `loan_repay` — `loanId`,
/// `stage` (`early`, `instalments` or `auto`), `principal`, `interest`, `penalty`,
/// `firstInstalment`, `lastInstalment`. Rows written before a field existed may lack it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct BillDetails {
    /// The pair or contract (`btcusdt`).
    pub symbol: Option<String>,
    /// A fill's side: `buy` or `sell`.
    pub side: Option<String>,
    /// A fill's quantity in the base coin.
    pub quantity: Option<Decimal>,
    /// A fill's price, the mark price of a liquidation, a seconds bet's opening price (stake) or
    /// settling price (settlement).
    pub price: Option<Decimal>,
    /// A funding payment's rate.
    pub rate: Option<Decimal>,
    /// A margin change: `add` or `remove`; a transfer with another user: `sent` or `received`; a
    /// seconds bet: `up` or `down`.
    pub direction: Option<String>,
    /// The order a hold was taken or released for; the seconds order settled.
    pub order_id: Option<i64>,
    /// Why an order's hold was released.
    pub reason: Option<String>,
    /// A deposit's or withdrawal's network (`TRC20`).
    pub network: Option<String>,
    /// A withdrawal's destination address.
    pub address: Option<String>,
    /// The step of a withdrawal: `held` (submitted) or `sent` (paid out); how a loan was repaid:
    /// `early`, `instalments` or `auto`.
    pub stage: Option<String>,
    /// What a fee was charged for: `withdrawal`.
    pub fee_of: Option<String>,
    /// A move between the user's own buckets: the bucket it left.
    pub from_bucket: Option<String>,
    /// A move between the user's own buckets: the bucket it entered.
    pub to_bucket: Option<String>,
    /// A transfer with another user: that user's id.
    pub counterparty: Option<i64>,
    /// A conversion: the coin given (lower case).
    pub from_coin: Option<String>,
    /// A conversion: the amount given.
    pub from_amount: Option<Decimal>,
    /// A conversion: the coin received (lower case).
    pub to_coin: Option<String>,
    /// A conversion: the amount received.
    pub to_amount: Option<Decimal>,
    /// A seconds bet's period in seconds.
    pub period_seconds: Option<u32>,
    /// A seconds bet's result: `win`, `loss` or `tie`.
    pub result: Option<String>,
    /// A seconds settlement: the opening price.
    pub open_price: Option<Decimal>,
    /// An earn entry's product.
    pub product_id: Option<i64>,
    /// An earn reward's accrual day (`2026-01-31`, UTC).
    pub date: Option<String>,
    /// What an early redemption deducted from the principal (the rewards paid before it).
    pub deduction: Option<Decimal>,
    /// A loan paid out or repaid: the loan's id.
    pub loan_id: Option<i64>,
    /// A loan paid out: the amount lent; a repayment: the principal repaid.
    pub principal: Option<Decimal>,
    /// A loan repayment: the interest paid.
    pub interest: Option<Decimal>,
    /// A loan repayment: the overdue penalty paid.
    pub penalty: Option<Decimal>,
    /// A loan repayment: the first instalment paid.
    pub first_instalment: Option<u32>,
    /// A loan repayment: the last instalment paid.
    pub last_instalment: Option<u32>,
    /// `referral_rebate`: the fills before this time (Unix milliseconds) the batch paid; each
    /// rebate of the entry is in the reward centre's statement with its fill.
    pub rebated_until: Option<i64>,
}

impl From<BillDetail> for BillDetails {
    fn from(detail: BillDetail) -> Self {
        Self {
            symbol: detail.symbol,
            side: detail.side,
            quantity: detail.quantity,
            price: detail.price,
            rate: detail.rate,
            direction: detail.direction,
            order_id: detail.order_id,
            reason: detail.reason,
            network: detail.network,
            address: detail.address,
            stage: detail.stage,
            fee_of: detail.fee_of,
            from_bucket: detail.from_bucket,
            to_bucket: detail.to_bucket,
            counterparty: detail.counterparty,
            from_coin: detail.from_coin,
            from_amount: detail.from_amount,
            to_coin: detail.to_coin,
            to_amount: detail.to_amount,
            period_seconds: detail.period_seconds,
            result: detail.result,
            open_price: detail.open_price,
            product_id: detail.product_id,
            date: detail.date,
            deduction: detail.deduction,
            loan_id: detail.loan_id,
            principal: detail.principal,
            interest: detail.interest,
            penalty: detail.penalty,
            first_instalment: detail.first_instalment,
            last_instalment: detail.last_instalment,
            rebated_until: detail.rebated_until,
        }
    }
}

/// A page of bills, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BillPage {
    /// All matching bills.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The bills.
    pub records: Vec<Bill>,
}

/// Bills as a CSV file.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BillExport {
    /// A file name for the download (`bills-20261121.csv`).
    pub file_name: String,
    /// RFC 4180 text with a header row (at most 10,000 rows, newest first): the journal's kinds and
    /// English memos, for audit and API clients.
    pub csv: String,
    /// Rows in the file.
    pub rows: u64,
    /// The same bills as data, in the file's order: screens write their own file from them, in
    /// the reader's language (kind names and `detail` worded as on the bills list).
    pub records: Vec<Bill>,
}

/// A value in USDT and BTC.
#[derive(Debug, Object)]
pub struct Value {
    /// In USDT (2 decimals, rounded down).
    pub usdt: Decimal,
    /// In BTC (8 decimals, rounded down).
    pub btc: Decimal,
}

impl From<Valuation> for Value {
    fn from(v: Valuation) -> Self {
        Value {
            usdt: v.usdt,
            btc: v.btc,
        }
    }
}

/// One bucket's value.
#[derive(Debug, Object)]
pub struct BucketValue {
    /// `funding` (with its frozen amounts), `trading` or `earn`.
    pub bucket: String,
    /// Its value.
    pub value: Value,
}

/// Everything the user holds, valued at the live prices.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletAccount {
    /// All buckets.
    pub total: Value,
    /// Per bucket.
    pub buckets: Vec<BucketValue>,
}

/// One coin of an account.
#[derive(Debug, Object)]
pub struct CoinHolding {
    /// Asset.
    pub coin: String,
    /// Available.
    pub available: Decimal,
    /// Held for pending withdrawals and open orders (funding only).
    pub frozen: Decimal,
    /// `available + frozen`.
    pub total: Decimal,
    /// Its value.
    pub value: Value,
}

impl From<ValuedCoin> for CoinHolding {
    fn from(c: ValuedCoin) -> Self {
        CoinHolding {
            total: c.available + c.frozen,
            coin: c.coin,
            available: c.available,
            frozen: c.frozen,
            value: c.value.into(),
        }
    }
}

/// A bucket's coins, valued.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BucketHoldings {
    /// The bucket.
    pub bucket: String,
    /// Its value.
    pub total: Value,
    /// The coins (for getMyBalance only those held; for getCurrencyAccount every asset).
    pub coins: Vec<CoinHolding>,
}

/// A bucket to read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum BalanceType {
    /// Funding (spot wallet).
    Funding,
    /// Trading (futures margin).
    Trading,
    /// Earn.
    Earn,
}

/// One asset's price in USDT.
#[derive(Debug, Object)]
#[oai(skip_serializing_if_is_none)]
pub struct CoinRate {
    /// Asset.
    pub coin: String,
    /// Price of one unit in USDT.
    pub usdt: Decimal,
    /// Time of the last trade behind it, unix ms (absent for USDT).
    pub ts: Option<i64>,
}

/// Every priced asset.
#[derive(Debug, Object)]
pub struct CoinRates {
    /// By asset name.
    pub rates: Vec<CoinRate>,
}

/// One move between the user's own buckets.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletTransfer {
    /// The journal entry.
    pub entry_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount.
    pub amount: Decimal,
    /// From this bucket.
    pub from: String,
    /// To this bucket.
    pub to: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A page of moves between buckets, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct WalletTransferPage {
    /// All moves.
    pub total: u64,
    /// This page (from 1).
    pub page: u64,
    /// Page size.
    pub page_size: u64,
    /// The moves.
    pub records: Vec<WalletTransfer>,
}

/// Earn income of one coin.
#[derive(Debug, Object)]
pub struct Income {
    /// Asset.
    pub coin: String,
    /// All income.
    pub total: Decimal,
    /// Income of the last 24 hours.
    pub yesterday: Decimal,
}

/// The user's earn income.
#[derive(Debug, Object)]
pub struct PersonalIncome {
    /// All income valued.
    pub total: Value,
    /// The last 24 hours' income valued.
    pub yesterday: Value,
    /// Per coin (only coins that earned).
    pub coins: Vec<Income>,
}

/// The bill of `row` as user `reader` reads it.
fn bill(row: BillRow, reader: i64) -> Bill {
    let detail = bill_detail::parse(bill_detail::Entry {
        kind: &row.kind,
        memo: &row.memo,
        reference: &row.reference,
        reader,
    })
    .map(BillDetails::from);
    Bill {
        id: row.posting_id,
        entry_id: row.entry_id,
        kind: row.kind,
        coin: row.asset,
        bucket: row.bucket,
        amount: row.amount.parse().unwrap_or_default(),
        balance: row.balance_after.parse().unwrap_or_default(),
        memo: row.memo,
        detail,
        created_at: row.created_at,
    }
}

/// The filter of a bill query, with its asset checked.
async fn bill_filter(db: &DatabaseConnection, query: &BillQuery) -> Result<BillFilter, Refusal> {
    let coin = match &query.coin {
        Some(coin) if !coin.trim().is_empty() => {
            Some(super::service::asset(db, coin, "coin").await?)
        }
        _ => None,
    };
    Ok(BillFilter {
        coin,
        kind: query.kind.clone().filter(|kind| !kind.is_empty()),
        bucket: query.bucket.map(ReportBucket::bucket),
        start_time: query.start_time,
        end_time: query.end_time,
    })
}

const DAY_MS: i64 = 86_400_000;

#[OpenApi(tag = "ApiTags::Reports")]
impl ReportsApi {
    /// The user's bills: every change of their balances, newest first, filterable by coin, kind,
    /// bucket and time.
    #[oai(
        path = "/api/:head/coin/assets/getMyBill",
        method = "post",
        operation_id = "getMyBill"
    )]
    async fn get_my_bill(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        body: JsonBody<BillQuery>,
    ) -> MemberResponse<BillPage> {
        let query = body.0;
        let result = async {
            check_head(&head, config)?;
            let filter = bill_filter(db, &query).await?;
            let Paging { page, page_size } = Paging::new(query.page, query.page_size);
            let (total, rows) = reports::bills(db, auth.0.id(), &filter, page, page_size).await?;
            Ok(BillPage {
                total,
                page,
                page_size,
                records: rows.into_iter().map(|row| bill(row, auth.0.id())).collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's bills as CSV (same filters as getMyBill, at most 10,000 rows), times at
    /// `offsetMinutes` from UTC in `MM/DD/YYYY HH:mm:ss`.
    #[oai(
        path = "/api/:head/coin/assets/getMyBillCsv",
        method = "get",
        operation_id = "exportMyBill"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn export_my_bill(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// Only this asset.
        #[oai(validator(max_length = 16))]
        coin: Query<Option<String>>,
        /// Only this kind.
        #[oai(validator(max_length = 32, pattern = "^[a-z_]+$"))]
        kind: Query<Option<String>>,
        /// Only this bucket.
        bucket: Query<Option<ReportBucket>>,
        /// From this time, unix ms.
        #[oai(name = "startTime", validator(minimum(value = "0")))]
        start_time: Query<Option<i64>>,
        /// Until this time, unix ms.
        #[oai(name = "endTime", validator(minimum(value = "0")))]
        end_time: Query<Option<i64>>,
        /// The user's UTC offset in minutes (−720 to 840; 0 when absent).
        #[oai(
            name = "offsetMinutes",
            validator(minimum(value = "-720"), maximum(value = "840"))
        )]
        offset_minutes: Query<Option<i32>>,
    ) -> MemberResponse<BillExport> {
        let query = BillQuery {
            coin: coin.0,
            kind: kind.0,
            bucket: bucket.0,
            start_time: start_time.0,
            end_time: end_time.0,
            ..BillQuery::default()
        };
        let result = async {
            check_head(&head, config)?;
            let filter = bill_filter(db, &query).await?;
            let offset = offset_minutes.0.unwrap_or(0);
            let reader = auth.0.id();
            let rows = reports::export_rows(db, reader, &filter).await?;
            let csv = reports::bills_csv(&rows, offset);
            let now = now_ms();
            let day = wasm_core::format::format_date_time(now, offset);
            // MM/DD/YYYY → YYYYMMDD for the file name.
            let stamp = format!("{}{}{}", &day[6..10], &day[0..2], &day[3..5]);
            Ok(BillExport {
                file_name: format!("bills-{stamp}.csv"),
                rows: rows.len() as u64,
                csv,
                records: rows.into_iter().map(|row| bill(row, reader)).collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Everything the user holds, per bucket and in all, valued in USDT and BTC at the live prices.
    #[oai(
        path = "/api/:head/coin/assets/getWalletAccount",
        method = "get",
        operation_id = "getWalletAccount"
    )]
    async fn get_wallet_account(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<WalletAccount> {
        let result = async {
            check_head(&head, config)?;
            let (coins, rates) = reports::valued_balances(db, hub, auth.0.id()).await?;
            let (total, buckets) = reports::wallet(&coins, &rates);
            Ok(WalletAccount {
                total: total.into(),
                buckets: buckets
                    .into_iter()
                    .map(|(bucket, value)| BucketValue {
                        bucket: bucket.as_str().to_owned(),
                        value: value.into(),
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The coins the user holds in one bucket (`type`: funding, trading or earn), valued.
    #[oai(
        path = "/api/:head/coin/assets/getMyBalance",
        method = "get",
        operation_id = "getMyBalance"
    )]
    async fn get_my_balance(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(hub): Data<&Arc<MarketHub>>,
        head: Path<String>,
        auth: Satoken,
        /// The bucket (funding when absent).
        #[oai(name = "type")]
        kind: Query<Option<BalanceType>>,
    ) -> MemberResponse<BucketHoldings> {
        let result = async {
            check_head(&head, config)?;
            let bucket = match kind.0.unwrap_or(BalanceType::Funding) {
                BalanceType::Funding => Bucket::Funding,
                BalanceType::Trading => Bucket::Trading,
                BalanceType::Earn => Bucket::Earn,
            };
            holdings(db, hub, auth.0.id(), bucket, false).await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The funding (spot) account: every asset with available, frozen and value.
    #[oai(
        path = "/api/:head/coin/assets/getCurrencyAccount",
        method = "post",
        operation_id = "getCurrencyAccount"
    )]
    async fn get_currency_account(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(hub): Data<&Arc<MarketHub>>,
        head: Path<String>,
        auth: Satoken,
    ) -> MemberResponse<BucketHoldings> {
        let result = async {
            check_head(&head, config)?;
            holdings(db, hub, auth.0.id(), Bucket::Funding, true).await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The USDT price of every priced asset, from the live tickers (public).
    #[oai(
        path = "/api/:head/coin/assets/getCoinRate",
        method = "get",
        operation_id = "getCoinRate"
    )]
    async fn get_coin_rate(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
    ) -> LookupResponse<CoinRates> {
        let result = async {
            check_head(&head, config)?;
            let rates = Rates::live(db, hub).await?;
            Ok(CoinRates {
                rates: rates
                    .iter()
                    .map(|(coin, rate)| CoinRate {
                        coin: coin.to_owned(),
                        usdt: rate.usdt,
                        ts: rate.ts,
                    })
                    .collect(),
            })
        }
        .await;
        LookupResponse::of(result)
    }

    /// The user's moves between their own funding, trading and earn buckets, newest first.
    #[oai(
        path = "/api/:head/coin/wallet/trans",
        method = "get",
        operation_id = "getWalletTransfers"
    )]
    async fn get_wallet_transfers(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        head: Path<String>,
        auth: Satoken,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Page size, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<WalletTransferPage> {
        let Paging { page, page_size } = Paging::new(page.0, page_size.0);
        let result = async {
            check_head(&head, config)?;
            let (total, moves) =
                reports::bucket_transfers(db, auth.0.id(), page, page_size).await?;
            Ok(WalletTransferPage {
                total,
                page,
                page_size,
                records: moves
                    .into_iter()
                    .map(|m| WalletTransfer {
                        entry_id: m.entry_id,
                        coin: m.coin,
                        amount: m.amount,
                        from: m.from,
                        to: m.to,
                        created_at: m.created_at,
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's earn income: in all and over the last 24 hours, per coin and valued.
    #[oai(
        path = "/api/financial/personalIncome",
        method = "post",
        operation_id = "getPersonalIncome"
    )]
    async fn get_personal_income(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&Arc<MarketHub>>,
        auth: Satoken,
    ) -> MemberResponse<PersonalIncome> {
        let result = async {
            let rows = reports::earn_income(db, auth.0.id(), now_ms() - DAY_MS).await?;
            let rates = Rates::live(db, hub).await?;
            let value = |pick: fn(&reports::IncomeRow) -> Decimal| -> Value {
                let usdt = rows
                    .iter()
                    .map(|r| rates.usdt_value(&r.coin, pick(r)))
                    .sum();
                Valuation::of_usdt(&rates, usdt).into()
            };
            Ok::<_, Refusal>(PersonalIncome {
                total: value(|r| r.total),
                yesterday: value(|r| r.recent),
                coins: rows
                    .iter()
                    .map(|r| Income {
                        coin: r.coin.clone(),
                        total: r.total,
                        yesterday: r.recent,
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}

async fn holdings(
    db: &DatabaseConnection,
    hub: &MarketHub,
    user_id: i64,
    bucket: Bucket,
    keep_empty: bool,
) -> Result<BucketHoldings, Refusal> {
    let (coins, rates) = reports::valued_balances(db, hub, user_id).await?;
    let (total, coins) = reports::bucket_coins(&coins, &rates, bucket, keep_empty);
    Ok(BucketHoldings {
        bucket: bucket.as_str().to_owned(),
        total: total.into(),
        coins: coins.into_iter().map(CoinHolding::from).collect(),
    })
}
