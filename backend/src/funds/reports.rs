//! What a user reads about their money, all derived from the ledger: bills (every posting on the
//! user's accounts, filterable and exportable as CSV), balances valued in USDT and BTC per bucket
//! and per coin, the history of moves between their own buckets, and earn income.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, FromQueryResult, JoinType,
    PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Select,
};

use super::ledger::Bucket;
use super::prices::{Rates, Valuation};
use super::service::{CoinBalances, user_coins};
use crate::entity::{journal_entry, journal_posting, ledger_account};
use crate::refusal::Refusal;

/// Most rows of one CSV export.
pub const MAX_EXPORT_ROWS: u64 = 10_000;
/// The entry kind of earn income (credited by earn products).
pub const EARN_INCOME: &str = "earn_income";
/// The entry kind of a move between a user's own buckets.
pub const BUCKET_TRANSFER: &str = "bucket_transfer";

/// The kind filter that selects every futures entry (`futures_fill`, `futures_margin`, …).
pub const FUTURES_KINDS: &str = "futures";

/// Which bills to read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BillFilter {
    /// Only this asset.
    pub coin: Option<String>,
    /// Only entries of this kind (`deposit`, `exchange`, …), or of every futures kind
    /// ([`FUTURES_KINDS`]).
    pub kind: Option<String>,
    /// Only this bucket.
    pub bucket: Option<Bucket>,
    /// From this time (unix ms, inclusive).
    pub start_time: Option<i64>,
    /// Until this time (unix ms, exclusive).
    pub end_time: Option<i64>,
}

/// One posting on one of the user's accounts, with its entry.
#[derive(Debug, Clone, PartialEq, Eq, FromQueryResult)]
pub struct BillRow {
    /// The posting.
    pub posting_id: i64,
    /// The entry.
    pub entry_id: i64,
    /// The entry's kind.
    pub kind: String,
    /// The entry's memo.
    pub memo: String,
    /// The entry's reference (`deposit:12`, `spot_order:17`, …).
    pub reference: String,
    /// When it was posted, unix ms.
    pub created_at: i64,
    /// Asset.
    pub asset: String,
    /// The user's bucket.
    pub bucket: String,
    /// Signed amount (decimal text).
    pub amount: String,
    /// The bucket's balance after it (decimal text).
    pub balance_after: String,
}

fn entry_of_posting() -> sea_orm::RelationDef {
    journal_posting::Entity::belongs_to(journal_entry::Entity)
        .from(journal_posting::Column::EntryId)
        .to(journal_entry::Column::Id)
        .into()
}

fn account_of_posting() -> sea_orm::RelationDef {
    journal_posting::Entity::belongs_to(ledger_account::Entity)
        .from(journal_posting::Column::AccountId)
        .to(ledger_account::Column::Id)
        .into()
}

/// The user's postings matching `filter`, newest first, as [`BillRow`]s.
fn bill_query(user_id: i64, filter: &BillFilter) -> Select<journal_posting::Entity> {
    let mut query = journal_posting::Entity::find()
        .select_only()
        .column_as(journal_posting::Column::Id, "posting_id")
        .column_as(journal_posting::Column::EntryId, "entry_id")
        .column_as(journal_entry::Column::Kind, "kind")
        .column_as(journal_entry::Column::Memo, "memo")
        .column_as(journal_entry::Column::Reference, "reference")
        .column_as(journal_entry::Column::CreatedAt, "created_at")
        .column_as(journal_posting::Column::Asset, "asset")
        .column_as(ledger_account::Column::Bucket, "bucket")
        .column_as(journal_posting::Column::Amount, "amount")
        .column_as(journal_posting::Column::BalanceAfter, "balance_after")
        .join(JoinType::InnerJoin, entry_of_posting())
        .join(JoinType::InnerJoin, account_of_posting())
        .filter(ledger_account::Column::UserId.eq(user_id));
    if let Some(coin) = &filter.coin {
        query = query.filter(journal_posting::Column::Asset.eq(coin.as_str()));
    }
    match filter.kind.as_deref() {
        Some(FUTURES_KINDS) => {
            query = query.filter(journal_entry::Column::Kind.starts_with("futures_"));
        }
        Some(kind) => query = query.filter(journal_entry::Column::Kind.eq(kind)),
        None => {}
    }
    if let Some(bucket) = filter.bucket {
        query = query.filter(ledger_account::Column::Bucket.eq(bucket.as_str()));
    }
    if let Some(start) = filter.start_time {
        query = query.filter(journal_entry::Column::CreatedAt.gte(start));
    }
    if let Some(end) = filter.end_time {
        query = query.filter(journal_entry::Column::CreatedAt.lt(end));
    }
    query.order_by_desc(journal_posting::Column::Id)
}

/// A page (from 1) of the user's bills and how many match in all.
pub async fn bills(
    db: &DatabaseConnection,
    user_id: i64,
    filter: &BillFilter,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<BillRow>), Refusal> {
    let paginator = bill_query(user_id, filter)
        .into_model::<BillRow>()
        .paginate(db, page_size);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(page.saturating_sub(1)).await?;
    Ok((total, rows))
}

/// Every bill matching `filter`, at most [`MAX_EXPORT_ROWS`], newest first.
pub async fn export_rows(
    db: &DatabaseConnection,
    user_id: i64,
    filter: &BillFilter,
) -> Result<Vec<BillRow>, Refusal> {
    Ok(bill_query(user_id, filter)
        .limit(MAX_EXPORT_ROWS)
        .into_model::<BillRow>()
        .all(db)
        .await?)
}

/// `rows` as CSV text with a header row (the journal's kinds and English memos, for audit and API
/// clients); times as `MM/DD/YYYY HH:mm:ss` at `offset_minutes` from UTC.
pub fn bills_csv(rows: &[BillRow], offset_minutes: i32) -> String {
    let mut csv = String::from("time,type,coin,account,amount,balance,entry,memo\r\n");
    for row in rows {
        let fields = [
            wasm_core::format::format_date_time(row.created_at, offset_minutes),
            row.kind.clone(),
            row.asset.to_ascii_uppercase(),
            row.bucket.clone(),
            row.amount.clone(),
            row.balance_after.clone(),
            row.entry_id.to_string(),
            row.memo.clone(),
        ];
        let line: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
        csv.push_str(&line.join(","));
        csv.push_str("\r\n");
    }
    csv
}

/// One CSV field (RFC 4180 quoting). Text that a spreadsheet would run as a formula is prefixed
/// with `'`; a signed amount (`-12.5`) is a number, not a formula, and stays as it is.
fn csv_field(text: &str) -> String {
    let is_number = text.parse::<Decimal>().is_ok();
    let mut text = text.to_owned();
    if !is_number && text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        text.insert(0, '\'');
    }
    if text.contains([',', '"', '\r', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

/// One coin of a bucket with its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValuedCoin {
    /// Asset.
    pub coin: String,
    /// Available in the bucket.
    pub available: Decimal,
    /// Held (funding bucket: pending withdrawals and open spot orders; trading bucket: futures
    /// margins and futures order holds; zero elsewhere).
    pub frozen: Decimal,
    /// `available + frozen` valued.
    pub value: Valuation,
}

/// The bucket whose amounts count as held in `bucket`: frozen funds in the funding bucket, futures
/// margins and order holds in the trading bucket.
fn held_with(bucket: Bucket) -> Option<Bucket> {
    match bucket {
        Bucket::Funding => Some(Bucket::Frozen),
        Bucket::Trading => Some(Bucket::FuturesMargin),
        _ => None,
    }
}

/// The coins of one bucket (the funding bucket includes its frozen amounts), valued, and the
/// bucket's total value. Coins with nothing in the bucket are left out unless `keep_empty`.
pub fn bucket_coins(
    coins: &[CoinBalances],
    rates: &Rates,
    bucket: Bucket,
    keep_empty: bool,
) -> (Valuation, Vec<ValuedCoin>) {
    let mut total_usdt = Decimal::ZERO;
    let mut valued = Vec::new();
    for balances in coins {
        let available = balances.get(bucket);
        let frozen = held_with(bucket).map_or(Decimal::ZERO, |held| balances.get(held));
        let usdt = rates.usdt_value(&balances.coin, available + frozen);
        total_usdt += usdt;
        if keep_empty || !(available + frozen).is_zero() {
            valued.push(ValuedCoin {
                coin: balances.coin.clone(),
                available,
                frozen,
                value: Valuation::of_usdt(rates, usdt),
            });
        }
    }
    (Valuation::of_usdt(rates, total_usdt), valued)
}

/// The value of each bucket (funding with its frozen amounts, trading, earn) and of them all.
pub fn wallet(coins: &[CoinBalances], rates: &Rates) -> (Valuation, Vec<(Bucket, Valuation)>) {
    let mut total = Decimal::ZERO;
    let buckets = [Bucket::Funding, Bucket::Trading, Bucket::Earn]
        .into_iter()
        .map(|bucket| {
            let usdt: Decimal = coins
                .iter()
                .map(|c| {
                    let held = held_with(bucket).map_or(Decimal::ZERO, |held| c.get(held));
                    rates.usdt_value(&c.coin, c.get(bucket) + held)
                })
                .sum();
            total += usdt;
            (bucket, Valuation::of_usdt(rates, usdt))
        })
        .collect();
    (Valuation::of_usdt(rates, total), buckets)
}

/// The user's balances with the live rates.
pub async fn valued_balances(
    db: &DatabaseConnection,
    hub: &crate::market::MarketHub,
    user_id: i64,
) -> Result<(Vec<CoinBalances>, Rates), Refusal> {
    Ok((user_coins(db, user_id).await?, Rates::live(db, hub).await?))
}

/// One move between a user's own buckets.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BucketTransferRow {
    /// The entry.
    pub entry_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount moved.
    pub amount: Decimal,
    /// From this bucket.
    pub from: String,
    /// To this bucket.
    pub to: String,
    /// Unix ms.
    pub created_at: i64,
}

/// A page (from 1) of the user's moves between their own buckets, newest first, and the total.
pub async fn bucket_transfers(
    db: &DatabaseConnection,
    user_id: i64,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<BucketTransferRow>), Refusal> {
    let filter = BillFilter {
        kind: Some(BUCKET_TRANSFER.to_owned()),
        ..BillFilter::default()
    };
    // Each move is two postings (out of one bucket, into the other); page by the outgoing ones.
    let outgoing = bill_query(user_id, &filter).filter(journal_posting::Column::Amount.like("-%"));
    let paginator = outgoing.into_model::<BillRow>().paginate(db, page_size);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(page.saturating_sub(1)).await?;
    let entry_ids: Vec<i64> = rows.iter().map(|row| row.entry_id).collect();
    let incoming: BTreeMap<i64, BillRow> = bill_query(user_id, &filter)
        .filter(journal_posting::Column::EntryId.is_in(entry_ids))
        .filter(journal_posting::Column::Amount.not_like("-%"))
        .into_model::<BillRow>()
        .all(db)
        .await?
        .into_iter()
        .map(|row| (row.entry_id, row))
        .collect();
    let moves = rows
        .into_iter()
        .map(|out| BucketTransferRow {
            entry_id: out.entry_id,
            amount: -out.amount.parse::<Decimal>().unwrap_or_default(),
            to: incoming
                .get(&out.entry_id)
                .map(|row| row.bucket.clone())
                .unwrap_or_default(),
            from: out.bucket,
            coin: out.asset,
            created_at: out.created_at,
        })
        .collect();
    Ok((total, moves))
}

/// Earn income per coin: all of it, and what was credited since `since_ms`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncomeRow {
    /// Asset.
    pub coin: String,
    /// All income.
    pub total: Decimal,
    /// Income since the start of the window.
    pub recent: Decimal,
}

/// The user's earn income per coin (postings of [`EARN_INCOME`] entries on their accounts).
pub async fn earn_income(
    db: &impl ConnectionTrait,
    user_id: i64,
    since_ms: i64,
) -> Result<Vec<IncomeRow>, Refusal> {
    let filter = BillFilter {
        kind: Some(EARN_INCOME.to_owned()),
        ..BillFilter::default()
    };
    let mut by_coin: BTreeMap<String, IncomeRow> = BTreeMap::new();
    for row in bill_query(user_id, &filter)
        .into_model::<BillRow>()
        .all(db)
        .await?
    {
        let amount = row.amount.parse::<Decimal>().unwrap_or_default();
        let income = by_coin.entry(row.asset.clone()).or_insert(IncomeRow {
            coin: row.asset.clone(),
            total: Decimal::ZERO,
            recent: Decimal::ZERO,
        });
        income.total += amount;
        if row.created_at >= since_ms {
            income.recent += amount;
        }
    }
    Ok(by_coin.into_values().collect())
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;
    use crate::funds::prices::Rate;

    #[test]
    fn csv_fields_are_quoted_and_formulas_defused() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("-12.5"), "-12.5");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("@cmd"), "'@cmd");
    }

    #[test]
    fn buckets_are_valued_with_frozen_funds_in_funding() {
        let coins = vec![
            CoinBalances {
                coin: "btc".into(),
                buckets: BTreeMap::from([
                    (Bucket::Funding, dec!(0.5)),
                    (Bucket::Frozen, dec!(0.5)),
                ]),
            },
            CoinBalances {
                coin: "usdt".into(),
                buckets: BTreeMap::from([(Bucket::Trading, dec!(100))]),
            },
        ];
        let rates = Rates::from_table(BTreeMap::from([
            (
                "usdt".into(),
                Rate {
                    usdt: dec!(1),
                    ts: None,
                },
            ),
            (
                "btc".into(),
                Rate {
                    usdt: dec!(50000),
                    ts: Some(1),
                },
            ),
        ]));
        let (total, buckets) = wallet(&coins, &rates);
        assert_eq!(total.usdt, dec!(50100));
        assert_eq!(total.btc, dec!(1.002));
        assert_eq!(
            buckets[0],
            (
                Bucket::Funding,
                Valuation {
                    usdt: dec!(50000),
                    btc: dec!(1)
                }
            )
        );
        let (funding, listed) = bucket_coins(&coins, &rates, Bucket::Funding, false);
        assert_eq!(funding.usdt, dec!(50000));
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].frozen, dec!(0.5));
        let (_, all) = bucket_coins(&coins, &rates, Bucket::Trading, true);
        assert_eq!(all.len(), 2);
    }
}
