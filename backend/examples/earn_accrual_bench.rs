//! The earn daily accrual over many open positions, and the latency of a subscription beside a
//! plain transfer (`make bench-earn`; figures in docs/benchmarks.md).
//!
//! Setup, on a fresh SQLite file (or `DATABASE_URL`): `PRODUCTS` (10) locked 30-day products at
//! 3.65 % APR, and `POSITIONS` (1,000,000) open positions — one per user and product, so
//! `POSITIONS / PRODUCTS` users — subscribed two days ago (value date yesterday 00:00), each with
//! its funding and earn accounts, so that exactly one accrual day of every position is due now.
//! Measured: the payout run (it must pay exactly `POSITIONS` days), a second run of the same day
//! (it must pay none), then `SAMPLES` (500) subscriptions and as many plain transfers (funding →
//! trading, one entry of two postings through the same ledger call a transfer makes) of one user,
//! alternating, on the same database: median and 95th percentile of each.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use backend::clock::DAY_MS;
use backend::config::Config;
use backend::earn::payout;
use backend::earn::products::{self, EarlyRedemption, Kind, Spec};
use backend::earn::subscribe;
use backend::entity::user;
use backend::funds::ledger::{self, AccountRef, Bucket, House, NewEntry, Posting};
use backend::lease::DbLease;
use rust_decimal::Decimal;
use sea_orm::{ConnectionTrait, DatabaseBackend};
use wasm_core::earn::RateBasis;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// `WITH RECURSIVE n(i)` from 1 to `count`, on both SQLite and PostgreSQL.
fn numbers(count: usize) -> String {
    format!("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count})")
}

async fn exec(db: &sea_orm::DatabaseConnection, sql: String) {
    db.execute_unprepared(&sql)
        .await
        .expect("the setup statement runs");
}

fn percentiles(mut samples: Vec<Duration>) -> (f64, f64) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() - 1) as f64 * q) as usize].as_secs_f64() * 1e3;
    (at(0.5), at(0.95))
}

#[tokio::main]
async fn main() {
    let (positions, product_count, samples) = (
        env("POSITIONS", 1_000_000),
        env("PRODUCTS", 10),
        env("SAMPLES", 500),
    );
    let users = positions.div_ceil(product_count);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = Config {
        data_dir: dir.path().to_path_buf(),
        database_url: std::env::var("DATABASE_URL").unwrap_or_default(),
        ..Config::default()
    };
    let db = backend::db::connect(&config)
        .await
        .expect("the database opens");
    let writer = backend::db::connect_writer(&config, &db)
        .await
        .expect("the writer opens");
    let backend_name = match db.get_database_backend() {
        DatabaseBackend::Postgres => "PostgreSQL",
        _ => "SQLite",
    };
    // 10:00 UTC today: yesterday's accrual day is due since 00:00.
    let today = backend::clock::now_ms().div_euclid(DAY_MS) * DAY_MS;
    let now = today + 10 * 3_600_000;

    let setup = Instant::now();
    let spec = |n: usize| Spec {
        kind: Kind::Pledge,
        tab: None,
        asset: "usdt".into(),
        reward_asset: None,
        names: BTreeMap::from([("en".to_owned(), format!("Bench pledge {n}"))]),
        rate: Decimal::new(365, 4),
        rate_basis: RateBasis::Apr,
        lock_days: 30,
        flexible: false,
        early_redemption: EarlyRedemption::Deduct,
        min_amount: Decimal::from(10),
        max_amount: Decimal::from(1_000_000),
        total_quota: Decimal::from(100_000_000),
        per_user_quota: None,
        max_subscriptions: None,
        start_at: today - 3 * DAY_MS,
        end_at: today + 365 * DAY_MS,
    };
    let mut first_product = 0;
    for n in 0..product_count {
        let product = products::create(&db, &spec(n), 1, now - 3 * DAY_MS)
            .await
            .expect("a product");
        if n == 0 {
            first_product = product.id;
        }
    }
    let accounts = |bucket: &str, balance: &str| {
        format!(
            "{} INSERT INTO ledger_account (owner, user_id, asset, bucket, balance, \
             may_go_negative, version, updated_at) \
             SELECT 'user:' || i, i, 'usdt', '{bucket}', {balance}, false, 0, {now} FROM n",
            numbers(users)
        )
    };
    exec(&db, accounts("funding", "'1000'")).await;
    exec(&db, accounts("earn", "'5000'")).await;
    let (subscribed, value) = (today - 2 * DAY_MS + 10 * 3_600_000, today - DAY_MS);
    exec(
        &db,
        format!(
            "{} INSERT INTO earn_position (user_id, product_id, rate_version_id, asset, \
             reward_asset, principal, rate, rate_basis, lock_days, flexible, early_redemption, \
             subscribed_at, value_date, delivery_date, status, paid_days, next_pay_date, \
             subscribe_entry_id) \
             SELECT (n.i - 1) / {product_count} + 1, p.id, p.rate_version_id, p.asset, \
             p.reward_asset, (100 + n.i % 900) || '.12345678', p.rate, p.rate_basis, p.lock_days, \
             false, p.early_redemption, {subscribed}, {value}, {delivery}, 'in_progress', 0, \
             {today}, 0 FROM n JOIN earn_product p \
             ON p.id = {first_product} + (n.i - 1) % {product_count}",
            numbers(positions),
            delivery = value + 30 * DAY_MS,
        ),
    )
    .await;
    println!(
        "setup ({backend_name}): {positions} open positions of {users} users in {product_count} \
         products in {:.1} s",
        setup.elapsed().as_secs_f64()
    );

    let lease = DbLease::new(db.clone(), payout::JOB);
    let started = Instant::now();
    let run = payout::run_due(&writer, &lease, now, payout::BATCH, &|_| {})
        .await
        .expect("the payouts run");
    let first = started.elapsed();
    let started = Instant::now();
    let again = payout::run_due(&writer, &lease, now, payout::BATCH, &|_| {})
        .await
        .expect("the payouts run");
    let second = started.elapsed();
    println!(
        "daily accrual: {} positions paid ({} days, {} batches) in {:.1} s (goal 60 s)",
        run.positions,
        run.payouts,
        run.batches,
        first.as_secs_f64()
    );
    println!(
        "the same day again: {} paid in {:.0} ms",
        again.payouts,
        second.as_secs_f64() * 1e3
    );
    assert_eq!(run.payouts, positions, "every open position's day is paid");
    assert_eq!(
        again.payouts, 0,
        "a second run of the same day pays nothing"
    );

    // Subscriptions against plain transfers, one user, on the same database.
    let saver = users as i64 + 1;
    let member = user::Model {
        id: saver,
        email: Some("saver@bench.test".into()),
        phone: None,
        password_hash: String::new(),
        fund_password_hash: None,
        invite_code: "BSAVER".into(),
        invited_by: None,
        avatar: String::new(),
        is_merchant: 1,
        user_type: "normal".into(),
        credit_score: 50,
        role: "user".into(),
        anti_code: None,
        totp_secret: None,
        totp_enabled: false,
        totp_last_step: None,
        kyc_level: 0,
        lang: None,
        frozen_at: None,
        wallet_address: None,
        created_at: now,
        updated_at: now,
    };
    let post = |entry: NewEntry| {
        let db = db.clone();
        async move {
            ledger::post_once(&db, &entry, None, |_| String::new(), ledger::no_extra)
                .await
                .expect("posted");
        }
    };
    post(NewEntry {
        kind: "deposit".into(),
        reference: format!("user:{saver}"),
        user_id: Some(saver),
        actor_id: None,
        memo: "bench".into(),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            AccountRef::funding(saver),
            "usdt",
            Decimal::from(10_000_000),
        )
        .to_vec(),
    })
    .await;
    let (mut subscribing, mut transferring) = (Vec::new(), Vec::new());
    for _ in 0..samples {
        let started = Instant::now();
        post(NewEntry {
            kind: "bucket_transfer".into(),
            reference: format!("user:{saver}"),
            user_id: Some(saver),
            actor_id: Some(saver),
            memo: "bench".into(),
            postings: Posting::transfer(
                AccountRef::funding(saver),
                AccountRef::User {
                    user_id: saver,
                    bucket: Bucket::Trading,
                },
                "usdt",
                Decimal::ONE,
            )
            .to_vec(),
        })
        .await;
        transferring.push(started.elapsed());
        let started = Instant::now();
        let checked = subscribe::check(&db, &member, first_product, "10", now)
            .await
            .expect("open");
        subscribe::subscribe(&db, saver, &checked, now, None, |_| String::new())
            .await
            .expect("subscribed");
        subscribing.push(started.elapsed());
    }
    let (transfer_p50, transfer_p95) = percentiles(transferring);
    let (subscribe_p50, subscribe_p95) = percentiles(subscribing);
    println!(
        "plain transfer: median {transfer_p50:.2} ms, p95 {transfer_p95:.2} ms ({samples} samples)"
    );
    println!(
        "subscription:   median {subscribe_p50:.2} ms, p95 {subscribe_p95:.2} ms ({:.2}× the \
         transfer's median; goal ≤ 2×)",
        subscribe_p50 / transfer_p50
    );
}
