//! The ledger's account rows: read and locked for an entry's postings (all of an entry's
//! accounts in one statement, in id order), and created at zero the first time a posting touches
//! them.

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseTransaction, DbErr, EntityTrait, QueryFilter,
    QueryOrder, QuerySelect, sea_query::OnConflict,
};

use super::AccountRef;
use crate::entity::ledger_account;

/// The rows of `net`'s accounts, each created (at zero) when it does not exist yet, locked in
/// id order: `FOR UPDATE` on PostgreSQL, in one statement whose rows are locked in the order it
/// returns them — the order the spot market's batch locks its accounts in
/// ([`super::batch::LedgerBatch::load`]), so an entry and a batch touching the same accounts (the fee
/// income account every fill moves) wait for each other but never in a cycle. (SQLite has no row
/// locks: its transactions take the database's write lock.)
pub(super) async fn lock_accounts(
    txn: &DatabaseTransaction,
    net: &BTreeMap<(AccountRef, String), Decimal>,
    now: i64,
) -> Result<HashMap<(AccountRef, String), ledger_account::Model>, DbErr> {
    let wanted: Vec<(AccountRef, &str)> = net
        .keys()
        .map(|(account, asset)| (*account, asset.as_str()))
        .collect();
    let mut found = read_locked(txn, &wanted).await?;
    let missing: Vec<(AccountRef, &str)> = wanted
        .iter()
        .filter(|(account, asset)| !found.contains_key(&(*account, (*asset).to_owned())))
        .copied()
        .collect();
    if !missing.is_empty() {
        for (account, asset) in &missing {
            new_account(*account, asset, now)
                .exec_without_returning(txn)
                .await?;
        }
        found.extend(read_locked(txn, &missing).await?);
    }
    Ok(found)
}

/// The existing rows among `wanted`, read (and on PostgreSQL locked) in id order.
async fn read_locked(
    txn: &DatabaseTransaction,
    wanted: &[(AccountRef, &str)],
) -> Result<HashMap<(AccountRef, String), ledger_account::Model>, DbErr> {
    let rows = ledger_account::Entity::find()
        .filter(super::batch::accounts_condition(wanted))
        .order_by_asc(ledger_account::Column::Id)
        .lock_exclusive()
        .all(txn)
        .await?;
    let mut by_name: HashMap<(String, String, String), ledger_account::Model> = rows
        .into_iter()
        .map(|row| {
            (
                (row.owner.clone(), row.bucket.clone(), row.asset.clone()),
                row,
            )
        })
        .collect();
    Ok(wanted
        .iter()
        .filter_map(|(account, asset)| {
            let name = (
                account.owner(),
                account.bucket_name().to_owned(),
                (*asset).to_owned(),
            );
            by_name
                .remove(&name)
                .map(|row| ((*account, (*asset).to_owned()), row))
        })
        .collect())
}

/// The query of `account` in `asset`. `FOR UPDATE` on PostgreSQL (SQLite has no row locks and
/// takes the database's write lock instead): the row stays locked until the transaction ends, so
/// a compare-and-swap of its balance does not lose to a concurrent writer of a hot account (the
/// house fee account every market credits) — the second writer waits, then reads the new balance.
pub(super) fn account_query(
    account: AccountRef,
    asset: &str,
) -> sea_orm::Select<ledger_account::Entity> {
    ledger_account::Entity::find()
        .filter(ledger_account::Column::Owner.eq(account.owner()))
        .filter(ledger_account::Column::Asset.eq(asset))
        .filter(ledger_account::Column::Bucket.eq(account.bucket_name()))
        .lock_exclusive()
}

/// The insert of `account` in `asset` at zero, which does nothing where it exists already (a
/// concurrent writer created it first).
pub(super) fn new_account(
    account: AccountRef,
    asset: &str,
    now: i64,
) -> sea_orm::Insert<ledger_account::ActiveModel> {
    ledger_account::Entity::insert(ledger_account::ActiveModel {
        owner: Set(account.owner()),
        user_id: Set(account.user_id()),
        asset: Set(asset.to_owned()),
        bucket: Set(account.bucket_name().to_owned()),
        balance: Set("0".to_owned()),
        may_go_negative: Set(account.may_go_negative()),
        version: Set(0),
        updated_at: Set(now),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            ledger_account::Column::Owner,
            ledger_account::Column::Asset,
            ledger_account::Column::Bucket,
        ])
        .do_nothing()
        .to_owned(),
    )
}
