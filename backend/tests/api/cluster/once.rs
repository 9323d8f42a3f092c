//! Settled exactly once across the cluster (issue 28), on three `backend serve` processes over one
//! PostgreSQL database and NATS, `a` holding the lease of the job under test:
//!
//! - Seconds bets placed through every instance are settled once each (one result, one payout
//!   entry for a win or a tie and none for a loss, the balance the bets leave), also when the
//!   holder of the settlement lease is killed (`kill -9`) between two settlements: another
//!   instance takes the lease over and settles what is left, the replay of the rule and the audit
//!   clean.
//! - Every futures funding time pays every open position once: the owner of the engines is killed
//!   at a funding time, and the new owner settles that time and the ones missed during the
//!   takeover without paying a position twice or skipping one; one round per time, one journal
//!   entry per payment, each position's funding total equal to its payments.

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use backend::clock::now_ms;
use backend::cluster::Bus;
use backend::entity::{
    futures_funding, futures_funding_round, futures_position, journal_entry, seconds_order,
};
use backend::funds::ledger::{self, AccountRef, Bucket};
use backend::futures::funding::next_funding_time;
use backend::futures::ownership;
use backend::seconds::engine as seconds_engine;
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder};
use serde_json::{Value, json};

use super::processes::{Processes, lease_holder};
use super::{Nats, shared_database};
use crate::helpers::{Member, TestApp, credit_account_on};

/// The seconds periods of the test: 3 s and 6 s (payout rate, smallest and largest stake).
const PERIODS: &str = "3:0.85:10:500,6:0.9:10:500";
/// Every bet's stake (USDT).
const STAKE: i64 = 10;
/// The funding interval of the test, in seconds.
const FUNDING_SECS: &str = "4";

/// Three processes with the variables `env`: `a` alone until it holds the lease `lease` (of
/// `lease_ms`), then `b`, then `c`, which runs the market simulator.
async fn led_by_a(
    nats: &Nats,
    database_url: &str,
    env: &[(&str, &str)],
    bus: &Bus,
    (lease, lease_ms): (&str, i64),
) -> Processes {
    let mut cluster = Processes::none_with(env);
    cluster.launch(nats, database_url, "a", false).await;
    let holder = lease_holder(bus, lease_ms, lease, None, Duration::from_secs(10)).await;
    assert_eq!(holder, "a", "the only instance does not hold {lease}");
    cluster.launch(nats, database_url, "b", false).await;
    cluster.launch(nats, database_url, "c", true).await;
    cluster
}

/// Three members of `app`, each credited `amount` USDT in `bucket`.
async fn members(
    app: &TestApp,
    db: &DatabaseConnection,
    prefix: &str,
    bucket: Bucket,
    amount: i64,
) -> Vec<Member> {
    let mut members = Vec::new();
    for n in 0..3 {
        let member = app.member(&format!("{prefix}-{n}@example.com")).await;
        let account = AccountRef::User {
            user_id: member.user_id,
            bucket,
        };
        credit_account_on(db, member.user_id, account, "usdt", Decimal::from(amount)).await;
        members.push(member);
    }
    members
}

/// Posts `body` to `path` as `token` through `app` until it is answered 200 (what needs a price
/// the simulator has not stored yet is refused until then), for `within`; the answer's data.
async fn accepted(app: &TestApp, token: &str, path: &str, body: Value, within: Duration) -> Value {
    let deadline = Instant::now() + within;
    loop {
        let (status, answer) = app.post_as(token, path, Some(body.clone())).await;
        if status == 200 {
            return answer["data"].clone();
        }
        assert!(Instant::now() < deadline, "{path}: {status} {answer}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Places a seconds bet of [`STAKE`] USDT through `app`; its id.
async fn bet(app: &TestApp, member: &Member, direction: &str, period: u32) -> i64 {
    let body = json!({"symbol": "btcusdt", "direction": direction, "periodSeconds": period,
        "quantity": STAKE.to_string()});
    let (status, answer) = app
        .post_as(&member.token, "/api/seconds/order/submit", Some(body))
        .await;
    assert_eq!(status, 200, "{answer}");
    answer["data"]["id"].as_i64().expect("an order id")
}

/// The stored seconds orders of `ids`.
async fn seconds_orders(db: &DatabaseConnection, ids: &[i64]) -> Vec<seconds_order::Model> {
    seconds_order::Entity::find()
        .filter(seconds_order::Column::Id.is_in(ids.to_vec()))
        .order_by_asc(seconds_order::Column::Id)
        .all(db)
        .await
        .expect("seconds orders")
}

/// Waits up to `within` until no order of `ids` is open.
async fn settled(db: &DatabaseConnection, ids: &[i64], within: Duration) {
    let deadline = Instant::now() + within;
    loop {
        let open: Vec<i64> = seconds_orders(db, ids)
            .await
            .into_iter()
            .filter(|order| order.status == "open")
            .map(|order| order.id)
            .collect();
        if open.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "still open after {within:?}: {open:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The journal entries of `kind` and `reference`.
async fn entries(db: &DatabaseConnection, kind: &str, reference: &str) -> Vec<i64> {
    journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq(kind))
        .filter(journal_entry::Column::Reference.eq(reference))
        .order_by_asc(journal_entry::Column::Id)
        .all(db)
        .await
        .expect("journal entries")
        .into_iter()
        .map(|entry| entry.id)
        .collect()
}

fn decimal(text: &str) -> Decimal {
    text.parse::<Decimal>().expect("a stored decimal")
}

#[tokio::test]
async fn seconds_bets_through_every_instance_settle_once_also_when_the_settler_is_killed() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let lease = (seconds_engine::LEASE, seconds_engine::LEASE_MS);
    let mut cluster = led_by_a(
        &nats,
        &database.0,
        &[("EXCHANGE_SECONDS_PERIODS", PERIODS)],
        &bus,
        lease,
    )
    .await;
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    let credit = 1_000;
    let members = members(
        &cluster.apps[0],
        &db,
        "cluster-once-seconds",
        Bucket::Funding,
        credit,
    )
    .await;
    let direction = |n: usize| if n.is_multiple_of(2) { "up" } else { "down" };

    // The first bet waits for the simulator's first stored tick (the opening price).
    let first = accepted(
        &cluster.apps[1],
        &members[0].token,
        "/api/seconds/order/submit",
        json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 3,
            "quantity": STAKE.to_string()}),
        Duration::from_secs(20),
    )
    .await;
    let mut placed = vec![(0, first["id"].as_i64().expect("an order id"))];
    // Round one: every member through every instance, `a` settling.
    for (n, member) in members.iter().enumerate() {
        for app in &cluster.apps {
            let id = bet(app, member, direction(n + placed.len()), 3).await;
            placed.push((n, id));
        }
    }
    let ids: Vec<i64> = placed.iter().map(|(_, id)| *id).collect();
    settled(&db, &ids, Duration::from_secs(15)).await;

    // Round two, 3 s and 6 s bets through every instance: `a` is killed once the first 3 s bet
    // is settled, while the 6 s ones are open.
    let mut round_two = Vec::new();
    for period in [3, 6] {
        for (n, member) in members.iter().enumerate() {
            for app in &cluster.apps {
                let id = bet(app, member, direction(n + round_two.len()), period).await;
                round_two.push((n, id, period));
            }
        }
    }
    settled(&db, &[round_two[0].1], Duration::from_secs(10)).await;
    cluster.kill(0);
    let killed = Instant::now();
    let long: Vec<i64> = round_two
        .iter()
        .filter(|(_, _, period)| *period == 6)
        .map(|(_, id, _)| *id)
        .collect();
    let open_at_kill = seconds_orders(&db, &long)
        .await
        .iter()
        .filter(|order| order.status == "open")
        .count();
    assert!(open_at_kill > 0, "every bet was settled before the kill");
    placed.extend(round_two.iter().map(|(n, id, _)| (*n, *id)));
    let next = lease_holder(&bus, lease.1, lease.0, Some("a"), Duration::from_secs(10)).await;
    // Bets through the survivors after the kill.
    for (n, member) in members.iter().enumerate() {
        for app in &cluster.apps[1..] {
            let id = bet(app, member, direction(n + placed.len()), 3).await;
            placed.push((n, id));
        }
    }
    let ids: Vec<i64> = placed.iter().map(|(_, id)| *id).collect();
    settled(&db, &ids, Duration::from_secs(25)).await;
    eprintln!(
        "{open_at_kill} bets open at the kill; {next} settled all within {:?}",
        killed.elapsed()
    );

    // Each bet once: one stored order per acknowledged id, settled with a result, one payout entry
    // for a win or a tie and none for a loss; the members' balances are what the bets leave.
    let orders = seconds_orders(&db, &ids).await;
    assert_eq!(orders.len(), ids.len(), "an acknowledged bet is missing");
    let all = seconds_order::Entity::find()
        .all(&db)
        .await
        .expect("seconds orders");
    assert_eq!(all.len(), ids.len(), "a bet was placed twice");
    let mut paid = vec![Decimal::ZERO; members.len()];
    let mut results = BTreeSet::new();
    for order in &orders {
        assert_eq!(order.status, "settled", "{order:?}");
        let result = order.result.clone().expect("a result");
        let payout = decimal(order.payout.as_deref().expect("a payout"));
        let payouts = entries(&db, "seconds_settle", &format!("seconds:{}", order.id)).await;
        if payout > Decimal::ZERO {
            assert_eq!(payouts.len(), 1, "{order:?}: payout entries {payouts:?}");
            assert_eq!(order.settle_entry_id, Some(payouts[0]), "{order:?}");
        } else {
            assert_eq!(result, "loss", "{order:?}");
            assert!(payouts.is_empty(), "{order:?}: payout entries {payouts:?}");
            assert_eq!(order.settle_entry_id, None, "{order:?}");
        }
        let owner = placed
            .iter()
            .find(|(_, id)| *id == order.id)
            .map(|(n, _)| *n)
            .expect("placed");
        assert_eq!(order.user_id, members[owner].user_id, "{order:?}");
        paid[owner] += payout;
        results.insert(result);
    }
    eprintln!("results: {results:?}");
    for (n, member) in members.iter().enumerate() {
        let bets = placed.iter().filter(|(owner, _)| *owner == n).count() as i64;
        let balance = ledger::balance(&db, AccountRef::funding(member.user_id), "usdt")
            .await
            .expect("a balance");
        assert_eq!(
            balance,
            Decimal::from(credit - STAKE * bets) + paid[n],
            "member {n}"
        );
    }
    let mismatches = backend::seconds::settle::replay(&db)
        .await
        .expect("replayed");
    assert!(mismatches.is_empty(), "{mismatches:?}");
    let report = backend::funds::audit::audit(&db).await.expect("audited");
    assert!(report.is_clean(), "{report:?}");
}

/// The BTC/USDT funding rounds recorded, oldest first.
async fn rounds(db: &DatabaseConnection) -> Vec<futures_funding_round::Model> {
    futures_funding_round::Entity::find()
        .filter(futures_funding_round::Column::Symbol.eq("btcusdt"))
        .order_by_asc(futures_funding_round::Column::FundingTime)
        .all(db)
        .await
        .expect("funding rounds")
}

/// Waits up to `within` until the round of a funding time at or after `time` is recorded.
async fn round_recorded(db: &DatabaseConnection, time: i64, within: Duration) {
    let deadline = Instant::now() + within;
    while rounds(db)
        .await
        .last()
        .is_none_or(|round| round.funding_time < time)
    {
        assert!(
            Instant::now() < deadline,
            "no funding round of {time} within {within:?}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The payments of funding time `time` stored so far.
async fn payments_of(db: &DatabaseConnection, time: i64) -> usize {
    futures_funding::Entity::find()
        .filter(futures_funding::Column::Symbol.eq("btcusdt"))
        .filter(futures_funding::Column::FundingTime.eq(time))
        .all(db)
        .await
        .expect("funding payments")
        .len()
}

#[tokio::test]
async fn every_funding_time_pays_every_position_once_across_a_takeover_of_the_engines() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let interval = FUNDING_SECS.parse::<i64>().expect("seconds") * 1000;
    let lease = (ownership::LEASE, ownership::LEASE_MS);
    let mut cluster = led_by_a(
        &nats,
        &database.0,
        &[("EXCHANGE_FUTURES_FUNDING_INTERVAL_SECS", FUNDING_SECS)],
        &bus,
        lease,
    )
    .await;
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    let members = members(
        &cluster.apps[0],
        &db,
        "cluster-once-funding",
        Bucket::Trading,
        100_000,
    )
    .await;

    // A long, a short and a larger long, each opened through another instance (the first waits
    // for the owner's first mark).
    for (n, (side, quantity)) in [("buy", "0.01"), ("sell", "0.01"), ("buy", "0.02")]
        .into_iter()
        .enumerate()
    {
        accepted(
            &cluster.apps[n],
            &members[n].token,
            "/api/contract/order/submit",
            json!({"symbol": "btcusdt", "side": side, "orderType": "market",
                "quantity": quantity}),
            Duration::from_secs(20),
        )
        .await;
    }
    let users: Vec<i64> = members.iter().map(|m| m.user_id).collect();
    let positions = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.is_in(users))
        .filter(futures_position::Column::Status.eq("open"))
        .all(&db)
        .await
        .expect("positions");
    assert_eq!(positions.len(), 3, "{positions:?}");
    let opened = positions.iter().map(|p| p.opened_at).max().expect("three");

    // `a` pays two rounds, then is killed in the next one, as soon as its first payment is stored.
    round_recorded(
        &db,
        next_funding_time(opened, interval) + interval,
        Duration::from_secs(15),
    )
    .await;
    let at = next_funding_time(now_ms(), interval);
    let deadline = Instant::now() + Duration::from_millis(u64::try_from(interval).expect("ms") * 2);
    while payments_of(&db, at).await == 0 {
        assert!(Instant::now() < deadline, "a paid nothing at {at}");
    }
    cluster.kill(0);
    let killed = Instant::now();
    let paid_by_a = payments_of(&db, at).await;
    let next = lease_holder(&bus, lease.1, lease.0, Some("a"), Duration::from_secs(8)).await;
    // The new owner settles the time of the kill, those missed during the takeover and two more;
    // then every instance stops, so that what follows reads a database that no longer moves.
    round_recorded(&db, at + 2 * interval, Duration::from_secs(20)).await;
    let took = killed.elapsed();
    cluster.kill(1);
    cluster.kill(2);

    // One round per funding time, none skipped from the first to the last.
    let rounds = rounds(&db).await;
    for pair in rounds.windows(2) {
        assert_eq!(
            pair[1].funding_time - pair[0].funding_time,
            interval,
            "{pair:?}"
        );
    }
    let last = rounds.last().expect("rounds").funding_time;
    let caught_up: Vec<i64> = rounds
        .iter()
        .filter(|round| round.caught_up)
        .map(|round| round.funding_time)
        .collect();
    eprintln!(
        "funding time {at}: {paid_by_a} of 3 positions paid by a when it was killed; {next} owns \
         the engines, round {} recorded {took:?} after the kill; caught up: {caught_up:?}",
        at + 2 * interval
    );
    for position in &positions {
        let payments = futures_funding::Entity::find()
            .filter(futures_funding::Column::PositionId.eq(position.id))
            .order_by_asc(futures_funding::Column::FundingTime)
            .all(&db)
            .await
            .expect("payments");
        // Every funding time after the opening, up to the last round, paid once (a round at a
        // zero rate pays nobody); a position opened while the round of the time before it ran
        // may have been paid that time too.
        let times: Vec<i64> = payments
            .iter()
            .map(|p| p.funding_time)
            .filter(|time| *time <= last)
            .collect();
        let after: Vec<i64> = times
            .iter()
            .copied()
            .filter(|time| *time > position.opened_at)
            .collect();
        let due: Vec<i64> = rounds
            .iter()
            .filter(|round| round.funding_time > position.opened_at)
            .filter(|round| decimal(&round.rate) != Decimal::ZERO)
            .map(|round| round.funding_time)
            .collect();
        assert_eq!(after, due, "position {}", position.id);
        assert!(
            times.len() <= after.len() + 1,
            "position {}: {times:?}",
            position.id
        );
        assert!(times.contains(&at), "position {}: {times:?}", position.id);
        // One journal entry per payment, and the position's funding total is their sum.
        let posted = entries(
            &db,
            "futures_funding",
            &format!("futures_position:{}", position.id),
        )
        .await;
        let recorded: Vec<i64> = payments
            .iter()
            .map(|p| p.entry_id)
            .filter(|id| *id != 0)
            .collect();
        assert_eq!(posted, recorded, "position {}", position.id);
        let stored = futures_position::Entity::find_by_id(position.id)
            .one(&db)
            .await
            .expect("a position")
            .expect("stored");
        let total: Decimal = payments.iter().map(|p| decimal(&p.payment)).sum();
        assert_eq!(
            decimal(&stored.funding).normalize(),
            total.normalize(),
            "position {}",
            position.id
        );
    }
    let report = backend::funds::audit::audit(&db).await.expect("audited");
    assert!(report.is_clean(), "{report:?}");
}
