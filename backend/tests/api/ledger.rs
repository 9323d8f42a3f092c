//! The ledger against the real database (SQLite, or PostgreSQL with `TEST_POSTGRES_URL`): entries
//! move balances atomically, a refused entry writes nothing, 100 concurrent spends of a whole balance
//! let exactly one through, and `backend audit` finds tampering.

use std::sync::Arc;

use backend::entity::{journal_entry, ledger_account};
use backend::funds::{
    audit::audit,
    ledger::{self, AccountRef, Bucket, House, LedgerError, NewEntry, Posting},
};
use backend::refusal::is_pool_timeout;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait, PaginatorTrait};

use crate::helpers::{spawn_app, spawn_app_with_empty_ledger};

fn entry(kind: &str, postings: Vec<Posting>) -> NewEntry {
    NewEntry {
        kind: kind.into(),
        reference: format!("{kind}:test"),
        user_id: None,
        actor_id: None,
        memo: String::new(),
        postings,
    }
}

fn deposit(user_id: i64, asset: &str, amount: Decimal) -> NewEntry {
    entry(
        "deposit",
        Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            AccountRef::funding(user_id),
            asset,
            amount,
        )
        .to_vec(),
    )
}

#[tokio::test]
async fn entries_move_balances_and_the_audit_agrees() {
    let app = spawn_app_with_empty_ledger().await;
    let db = app.db();
    ledger::post(db, &deposit(1, "usdt", dec!(100.5)))
        .await
        .unwrap();
    let trading = AccountRef::User {
        user_id: 1,
        bucket: Bucket::Trading,
    };
    let posted = ledger::post(
        db,
        &entry(
            "transfer",
            Posting::transfer(AccountRef::funding(1), trading, "usdt", dec!(40)).to_vec(),
        ),
    )
    .await
    .unwrap();
    assert_eq!(
        posted.balances[&(AccountRef::funding(1), "usdt".to_owned())],
        dec!(60.5)
    );
    assert_eq!(
        ledger::balance(db, trading, "usdt").await.unwrap(),
        dec!(40)
    );
    assert_eq!(
        ledger::balance(db, AccountRef::House(House::DepositsInTransit), "usdt")
            .await
            .unwrap(),
        dec!(-100.5)
    );
    let balances = ledger::balances(db, 1).await.unwrap();
    assert_eq!(balances.len(), 2);
    let report = audit(db).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
    assert_eq!((report.entries, report.postings), (2, 4));
    app.stop().await;
}

#[tokio::test]
async fn a_refused_entry_writes_nothing() {
    let app = spawn_app().await;
    let db = app.db();
    ledger::post(db, &deposit(2, "btc", dec!(0.5)))
        .await
        .unwrap();
    let entries_before = journal_entry::Entity::find().count(db).await.unwrap();
    let spend = entry(
        "withdrawal",
        Posting::transfer(
            AccountRef::funding(2),
            AccountRef::House(House::WithdrawalsInTransit),
            "btc",
            dec!(0.50000001),
        )
        .to_vec(),
    );
    match ledger::post(db, &spend).await {
        Err(LedgerError::InsufficientBalance { available, .. }) => assert_eq!(available, dec!(0.5)),
        other => panic!("expected insufficient balance, got {other:?}"),
    }
    // A house account that may not go negative refuses too.
    let from_fees = entry(
        "refund",
        Posting::transfer(
            AccountRef::House(House::Fees),
            AccountRef::funding(2),
            "btc",
            dec!(1),
        )
        .to_vec(),
    );
    assert!(matches!(
        ledger::post(db, &from_fees).await,
        Err(LedgerError::InsufficientBalance { .. })
    ));
    assert_eq!(
        journal_entry::Entity::find().count(db).await.unwrap(),
        entries_before
    );
    assert_eq!(
        ledger::balance(db, AccountRef::funding(2), "btc")
            .await
            .unwrap(),
        dec!(0.5)
    );
    assert!(audit(db).await.unwrap().is_clean());
    app.stop().await;
}

#[tokio::test]
async fn of_100_concurrent_spends_of_the_whole_balance_exactly_one_succeeds() {
    let app = spawn_app_with_empty_ledger().await;
    let db = Arc::new(app.db().clone());
    ledger::post(&db, &deposit(3, "usdt", dec!(250)))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for receiver in 0..100 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move {
            let spend = entry(
                "transfer",
                Posting::transfer(
                    AccountRef::funding(3),
                    AccountRef::funding(1000 + receiver),
                    "usdt",
                    dec!(250),
                )
                .to_vec(),
            );
            ledger::post(&db, &spend).await
        }));
    }
    let (mut succeeded, mut refused, mut busy) = (0, 0, 0);
    for task in tasks {
        match task.await.unwrap() {
            Ok(_) => succeeded += 1,
            Err(LedgerError::InsufficientBalance { .. }) => refused += 1,
            // What an overloaded machine gives instead of a refusal; the balance below shows it
            // changed nothing.
            Err(LedgerError::Contention) => busy += 1,
            Err(LedgerError::Db(error)) if is_pool_timeout(&error) => busy += 1,
            Err(other) => panic!("unexpected failure: {other}"),
        }
    }
    assert_eq!((succeeded, refused + busy), (1, 99));
    assert_eq!(
        ledger::balance(&*db, AccountRef::funding(3), "usdt")
            .await
            .unwrap(),
        Decimal::ZERO
    );
    let report = audit(&db).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
    assert_eq!(report.entries, 2);
    app.stop().await;
}

#[tokio::test]
async fn the_audit_command_reports_a_tampered_balance() {
    let app = spawn_app().await;
    let db = app.db();
    ledger::post(db, &deposit(4, "eth", dec!(3))).await.unwrap();
    let run = || {
        std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
            .arg("audit")
            .env("DATABASE_URL", app.database_url())
            .env("EXCHANGE_LOG", "error")
            .output()
            .expect("the audit runs")
    };
    let clean = run();
    assert!(
        clean.status.success(),
        "{}",
        String::from_utf8_lossy(&clean.stderr)
    );
    assert!(String::from_utf8_lossy(&clean.stdout).contains("the ledger is sound"));

    let account = ledger_account::Entity::find()
        .all(db)
        .await
        .unwrap()
        .into_iter()
        .find(|a| a.owner == "user:4")
        .unwrap();
    let mut tampered: ledger_account::ActiveModel = account.into();
    tampered.balance = Set("30".into());
    tampered.update(db).await.unwrap();
    let dirty = run();
    assert_eq!(dirty.status.code(), Some(1));
    let out = String::from_utf8_lossy(&dirty.stdout);
    assert!(
        out.contains("balance 30 but its postings sum to 3"),
        "{out}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_limited_lock_wait_gives_up_on_a_held_account_and_says_so() {
    use sea_orm::{DbBackend, QueryFilter, QuerySelect, TransactionTrait};
    let app = spawn_app().await;
    let member = app.member("lock-wait@example.com").await;
    app.credit(member.user_id, "usdt", dec!(10)).await;
    let held = || {
        ledger_account::Entity::find()
            .filter(sea_orm::ColumnTrait::eq(
                &ledger_account::Column::UserId,
                member.user_id,
            ))
            .lock_exclusive()
    };
    let holder = app.db().begin().await.unwrap();
    assert!(!held().all(&holder).await.unwrap().is_empty());
    let waiter = app.db().begin().await.unwrap();
    backend::db::limit_lock_wait(&waiter, "50ms").await.unwrap();
    let waited = held().all(&waiter).await;
    match app.db().get_database_backend() {
        // The row is locked by the holder: the waiter gives up after 50 ms and says why.
        DbBackend::Postgres => {
            let error = waited.expect_err("the held row cannot be locked");
            assert!(backend::db::is_lock_wait_refused(&error), "{error}");
        }
        // No row locks: a read waits for nothing (writes take the database's lock instead).
        _ => assert!(waited.is_ok()),
    }
    waiter.rollback().await.ok();
    holder.rollback().await.unwrap();
    app.stop().await;
}
