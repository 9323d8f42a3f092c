//! The loan due sweep over many open loans (`make bench-loans`; figures in docs/benchmarks.md).
//!
//! Setup, on a fresh SQLite file (or `DATABASE_URL`): `LOANS` (100,000) open 30-day `maturity`
//! loans of as many users, each with its instalment; `DUE` (1,000) of them need the sweep now —
//! half an instalment past its due time without funds (overdue: penalty, notice, history), half a
//! reminder — the rest fall due over the coming 27 days. Measured: the first sweep (it must look
//! at exactly the `DUE` loans) and a second one right after (nothing left: it must look at none).
//! Fails when either touches another number of loans.

use std::time::Instant;

use backend::config::{Config, LoansConfig};
use backend::entity::{loan, loan_instalment, user};
use backend::loans::LoanEvents;
use backend::loans::sweep::sweep;
use sea_orm::{ActiveValue::NotSet, EntityTrait, TransactionTrait};

const DAY: i64 = 86_400_000;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::main]
async fn main() {
    let (loans, due) = (env("LOANS", 100_000), env("DUE", 1_000));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = Config {
        data_dir: dir.path().to_path_buf(),
        database_url: std::env::var("DATABASE_URL").unwrap_or_default(),
        ..Config::default()
    };
    let db = backend::db::connect(&config)
        .await
        .expect("the database opens");
    let now = backend::clock::now_ms();
    let setup = Instant::now();
    for chunk in (0..loans).collect::<Vec<_>>().chunks(1_000) {
        let txn = db.begin().await.expect("a transaction");
        let users = chunk.iter().map(|&i| {
            let id = i as i64 + 1;
            user::ActiveModel {
                id: sea_orm::ActiveValue::Set(id),
                email: sea_orm::ActiveValue::Set(Some(format!("u{id}@bench.test"))),
                phone: sea_orm::ActiveValue::Set(None),
                password_hash: sea_orm::ActiveValue::Set(String::new()),
                fund_password_hash: sea_orm::ActiveValue::Set(None),
                invite_code: sea_orm::ActiveValue::Set(format!("B{id}")),
                invited_by: sea_orm::ActiveValue::Set(None),
                avatar: sea_orm::ActiveValue::Set(String::new()),
                is_merchant: sea_orm::ActiveValue::Set(1),
                user_type: sea_orm::ActiveValue::Set("normal".into()),
                credit_score: sea_orm::ActiveValue::Set(50),
                role: sea_orm::ActiveValue::Set("user".into()),
                anti_code: sea_orm::ActiveValue::Set(None),
                totp_secret: sea_orm::ActiveValue::Set(None),
                totp_enabled: sea_orm::ActiveValue::Set(false),
                totp_last_step: sea_orm::ActiveValue::Set(None),
                kyc_level: sea_orm::ActiveValue::Set(0),
                lang: sea_orm::ActiveValue::Set(None),
                created_at: sea_orm::ActiveValue::Set(now - 400 * DAY),
                updated_at: sea_orm::ActiveValue::Set(now),
                frozen_at: sea_orm::ActiveValue::Set(None),
                wallet_address: sea_orm::ActiveValue::Set(None),
            }
        });
        user::Entity::insert_many(users)
            .exec(&txn)
            .await
            .expect("users");
        let mut loan_rows = Vec::with_capacity(chunk.len());
        let mut instalments = Vec::with_capacity(chunk.len());
        for &i in chunk {
            let id = i as i64 + 1;
            // The first `due` loans: even ones overdue since an hour, odd ones 2 days from due
            // and not yet reminded; the rest due 4 to 30 days from now, reminded later.
            let (due_time, next_action_at) = if i < due && i % 2 == 0 {
                (now - 3_600_000, now - 3_600_000)
            } else if i < due {
                (now + 2 * DAY, now + 2 * DAY - 3 * DAY)
            } else {
                let due_time = now + 4 * DAY + (i as i64 % 26) * DAY + 1;
                (due_time, due_time - 3 * DAY)
            };
            loan_rows.push(loan::ActiveModel::from(loan::Model {
                id,
                application_id: id,
                user_id: id,
                product_id: 1,
                coin: "usdt".into(),
                scale: 2,
                principal: "1000".into(),
                day_rate: "0.0005".into(),
                cycle_days: 30,
                repay_way: "maturity".into(),
                penalty_day_rate: "0.0015".into(),
                grace_days: 3,
                institution: "Bench Lending".into(),
                start_time: due_time - 30 * DAY,
                end_time: due_time,
                total_interest: "15".into(),
                status: "active".into(),
                principal_paid: "0".into(),
                interest_paid: "0".into(),
                penalty_paid: "0".into(),
                next_action_at: Some(next_action_at),
                version: 0,
                disburse_entry_id: 0,
                created_at: due_time - 30 * DAY,
                settled_at: None,
            }));
            let mut row = loan_instalment::ActiveModel::from(loan_instalment::Model {
                id: 0,
                loan_id: id,
                number: 1,
                due_time,
                principal: "1000".into(),
                interest: "15".into(),
                amount: "1015".into(),
                penalty: "0".into(),
                status: "pending".into(),
                paid_amount: None,
                paid_at: None,
                paid_entry_id: None,
                reminded: i < due && i % 2 == 0,
                overdue_notified: false,
            });
            row.id = NotSet;
            instalments.push(row);
        }
        loan::Entity::insert_many(loan_rows)
            .exec(&txn)
            .await
            .expect("loans");
        loan_instalment::Entity::insert_many(instalments)
            .exec(&txn)
            .await
            .expect("instalments");
        txn.commit().await.expect("committed");
    }
    println!(
        "setup: {loans} open loans, {due} due, in {:.1} s",
        setup.elapsed().as_secs_f64()
    );
    let (events, loans_config) = (LoanEvents::default(), LoansConfig::default());
    let started = Instant::now();
    let report = sweep(&db, &events, &loans_config, now)
        .await
        .expect("the sweep runs");
    let first = started.elapsed();
    let started = Instant::now();
    let again = sweep(&db, &events, &loans_config, now)
        .await
        .expect("the sweep runs");
    let second = started.elapsed();
    println!(
        "sweep over {loans} open loans: looked at {} (overdue notices {}, reminders {}) in {:.0} ms",
        report.looked,
        report.overdue_notices,
        report.reminders,
        first.as_secs_f64() * 1e3
    );
    println!(
        "the next sweep: looked at {} in {:.1} ms",
        again.looked,
        second.as_secs_f64() * 1e3
    );
    assert_eq!(report.looked, due, "the sweep looks at the loans due only");
    assert_eq!(report.overdue_notices + report.reminders, due);
    assert_eq!(again.looked, 0, "nothing is left for the next sweep");
}
