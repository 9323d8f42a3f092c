//! The engine's tests: the open-order index and the taking of a batch on their own, and whole
//! batches run against a fresh SQLite database, their outcomes read back from the answers, the
//! ledger, the stored orders, the published book and the index.

use std::sync::Arc;

use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait, QueryOrder};
use tokio::sync::{Mutex, broadcast, mpsc, oneshot};
use wasm_core::validate::Violation;

use super::super::rules::PairRules;
use super::super::views::{OrderSide, OrderStatus, SpotOrder, TimeInForce};
use super::{
    Answer, Command, EngineContext, MAX_BATCH, OpenOrderIndex, OrderSpec, SpotEngine, Submit,
    batch_from,
};
use crate::db::Writer;
use crate::entity::{journal_entry, spot_order};
use crate::funds::ledger::{self, AccountRef, Bucket, House, Idempotency, NewEntry, Posting};
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::book::{BookSnapshot, Level};
use crate::refusal::Refusal;

async fn database(dir: &tempfile::TempDir) -> DatabaseConnection {
    let config = crate::config::Config {
        data_dir: dir.path().to_path_buf(),
        ..crate::config::Config::default()
    };
    crate::db::connect(&config).await.unwrap()
}

fn context(db: &DatabaseConnection) -> EngineContext {
    EngineContext {
        writer: Writer::Shared(db.clone()),
        pool: db.clone(),
        server: tokio::runtime::Handle::current(),
        hub: Arc::new(MarketHub::new()),
        user_events: broadcast::channel(64).0,
        security_percent: dec!(10),
        fee_discounts: Arc::default(),
        house_levels: 5,
        write_turn: Arc::new(Mutex::new(())),
        open_orders: Arc::default(),
    }
}

fn rules(base: &str, tick: Decimal, step: Decimal) -> Arc<PairRules> {
    Arc::new(PairRules {
        symbol: format!("{base}usdt"),
        base: base.to_owned(),
        quote: "usdt".to_owned(),
        tick,
        step,
        min_notional: dec!(1),
        maker_fee: dec!(0.001),
        taker_fee: dec!(0.001),
    })
}

/// Puts `amount` of `asset` into `to` from the outside world.
async fn fund(db: &DatabaseConnection, to: AccountRef, asset: &str, amount: Decimal) {
    let entry = NewEntry {
        kind: "test_funding".to_owned(),
        reference: format!("test:{asset}:{amount}"),
        user_id: None,
        actor_id: None,
        memo: String::new(),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            to,
            asset,
            amount,
        )
        .to_vec(),
    };
    ledger::post(db, &entry).await.unwrap();
}

fn level(price: Decimal, quantity: Decimal) -> Level {
    Level { price, quantity }
}

fn quote(bids: Vec<Level>, asks: Vec<Level>, last: Decimal) -> Command {
    Command::Quote {
        book: BookSnapshot {
            seq: 1,
            bids,
            asks,
            ts: 0,
        },
        last,
    }
}

/// A good-till-cancelled order without a key, to adjust before it is sent.
fn submit(
    user_id: i64,
    side: OrderSide,
    spec: OrderSpec,
) -> (Submit, oneshot::Receiver<Result<Answer, Refusal>>) {
    let (reply, answer) = oneshot::channel();
    let submit = Submit {
        user_id,
        side,
        spec,
        time_in_force: TimeInForce::Gtc,
        post_only: false,
        idempotency: None,
        reply,
    };
    (submit, answer)
}

fn order(
    user_id: i64,
    side: OrderSide,
    spec: OrderSpec,
) -> (Command, oneshot::Receiver<Result<Answer, Refusal>>) {
    let (submit, answer) = submit(user_id, side, spec);
    (Command::Submit(Box::new(submit)), answer)
}

fn limit(price: Decimal, quantity: Decimal) -> OrderSpec {
    OrderSpec::Limit { price, quantity }
}

fn cancel(user_id: i64, order_id: i64) -> (Command, oneshot::Receiver<Result<SpotOrder, Refusal>>) {
    let (reply, answer) = oneshot::channel();
    let command = Command::Cancel {
        user_id,
        order_id,
        reply,
    };
    (command, answer)
}

/// The order an answer carries; panics on a refusal or a replay.
fn placed(answer: Result<Answer, Refusal>) -> SpotOrder {
    match answer {
        Ok(Answer::Order(order)) => *order,
        other => panic!("expected a placed order, got {other:?}"),
    }
}

fn frozen(user_id: i64) -> AccountRef {
    AccountRef::User {
        user_id,
        bucket: Bucket::Frozen,
    }
}

async fn balance(db: &DatabaseConnection, account: AccountRef, asset: &str) -> Decimal {
    ledger::balance(db, account, asset).await.unwrap()
}

async fn order_rows(db: &DatabaseConnection) -> Vec<spot_order::Model> {
    spot_order::Entity::find()
        .order_by_asc(spot_order::Column::Id)
        .all(db)
        .await
        .unwrap()
}

async fn audit_is_clean(db: &DatabaseConnection) -> bool {
    crate::funds::audit::audit(db).await.unwrap().is_clean()
}

async fn entries(db: &DatabaseConnection) -> u64 {
    journal_entry::Entity::find().count(db).await.unwrap()
}

const MAKER: AccountRef = AccountRef::House(House::MarketMaker);

#[tokio::test]
async fn a_requote_that_fills_nothing_writes_nothing_and_waits_for_no_write_turn() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, MAKER, "usdt", dec!(100000)).await;
    fund(&db, MAKER, "btc", dec!(1)).await;
    let context = context(&db);
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    market.rebuild().await.unwrap();
    let before = entries(&db).await;
    // Another market holds the write turn for as long as this test runs.
    let _turn = context.write_turn.lock().await;
    for last in [dec!(50000), dec!(50001)] {
        let batch = vec![quote(
            vec![
                level(last - dec!(1), dec!(0.1)),
                level(last - dec!(2), dec!(0.2)),
            ],
            vec![level(last + dec!(1), dec!(0.1))],
            last,
        )];
        tokio::time::timeout(std::time::Duration::from_secs(10), market.process(batch))
            .await
            .expect("the re-quote waited for the write turn");
        let book = context
            .hub
            .book("btcusdt")
            .expect("the ladder is published");
        assert_eq!(
            book.bids,
            [
                level(last - dec!(1), dec!(0.1)),
                level(last - dec!(2), dec!(0.2))
            ]
        );
        assert_eq!(book.asks, [level(last + dec!(1), dec!(0.1))]);
    }
    assert_eq!(market.book.len(), 3, "the first ladder was withdrawn");
    assert_eq!(entries(&db).await, before);
}

#[tokio::test]
async fn a_requote_that_crosses_a_resting_order_settles_the_fill_in_a_transaction() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, MAKER, "usdt", dec!(10000)).await;
    fund(&db, MAKER, "btc", dec!(1)).await;
    fund(&db, AccountRef::funding(7), "usdt", dec!(1000)).await;
    let context = context(&db);
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    market.rebuild().await.unwrap();
    // A bid above where the market will be quoted rests while there is no ladder.
    let (submit, answer) = order(
        7,
        OrderSide::Buy,
        OrderSpec::Limit {
            price: dec!(50000),
            quantity: dec!(0.01),
        },
    );
    market.process(vec![submit]).await;
    assert!(matches!(answer.await.unwrap(), Ok(Answer::Order(_))));
    let before = entries(&db).await;
    market
        .process(vec![quote(
            vec![level(dec!(49980), dec!(0.1))],
            vec![level(dec!(49990), dec!(0.1))],
            dec!(49985),
        )])
        .await;
    assert!(market.open.is_empty(), "the user's bid was filled");
    assert!(entries(&db).await > before, "the fill was settled");
    let usdt = ledger::balance(&db, MAKER, "usdt").await.unwrap();
    assert_eq!(usdt, dec!(10500), "the house sold 0.01 at the bid's 50,000");
    let btc = ledger::balance(&db, AccountRef::funding(7), "btc")
        .await
        .unwrap();
    assert_eq!(btc, dec!(0.00999), "0.01 less the 0.1% fee");
    let book = context.hub.book("btcusdt").unwrap();
    assert_eq!(book.asks, [level(dec!(49990), dec!(0.09))]);
    assert!(
        crate::funds::audit::audit(&db).await.unwrap().is_clean(),
        "the audit finds the ledger consistent"
    );
}

#[tokio::test]
async fn the_ladder_stays_within_the_balance_left_after_another_markets_fills() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, MAKER, "usdt", dec!(1000)).await;
    fund(&db, MAKER, "btc", dec!(1)).await;
    fund(&db, MAKER, "eth", dec!(10)).await;
    fund(&db, AccountRef::funding(9), "eth", dec!(1)).await;
    let context = context(&db);
    let mut eth = SpotEngine::new(rules("eth", dec!(0.01), dec!(0.0001)), context.clone());
    let mut btc = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    eth.rebuild().await.unwrap();
    btc.rebuild().await.unwrap();
    // The house bids 800 USDT for ETH; a user sells into it.
    eth.process(vec![quote(
        vec![level(dec!(2000), dec!(0.4))],
        vec![level(dec!(2001), dec!(1))],
        dec!(2000),
    )])
    .await;
    let (sell, answer) = order(
        9,
        OrderSide::Sell,
        OrderSpec::Market {
            quantity: dec!(0.4),
        },
    );
    eth.process(vec![sell]).await;
    assert!(matches!(answer.await.unwrap(), Ok(Answer::Order(_))));
    let usdt = ledger::balance(&db, MAKER, "usdt").await.unwrap();
    assert_eq!(usdt, dec!(200));
    // The BTC market's next ladder bids only the 200 USDT the maker has left.
    btc.process(vec![quote(
        vec![level(dec!(50000), dec!(1))],
        vec![level(dec!(50001), dec!(1))],
        dec!(50000),
    )])
    .await;
    let book = context.hub.book("btcusdt").unwrap();
    assert_eq!(book.bids, [level(dec!(50000), dec!(0.004))]);
}

#[test]
fn the_open_order_index_follows_opened_and_closed_orders_and_a_rebuild_replaces_only_its_pair() {
    let index = OpenOrderIndex::default();
    let (btc, eth): (Arc<str>, Arc<str>) = (Arc::from("btcusdt"), Arc::from("ethusdt"));
    index.update(&btc, &[(1, 7), (2, 8)], std::iter::empty());
    index.update(&eth, &[(3, 7)], std::iter::empty());
    assert_eq!(index.symbol_of(7, 1).as_deref(), Some("btcusdt"));
    assert_eq!(
        index.symbol_of(8, 1),
        None,
        "another user's order is not found"
    );
    assert_eq!(index.symbol_of(7, 3).as_deref(), Some("ethusdt"));
    index.update(&btc, &[], [2].into_iter());
    assert_eq!(index.symbol_of(8, 2), None, "a closed order is gone");
    assert_eq!(index.symbol_of(7, 1).as_deref(), Some("btcusdt"));
    index.replace(&btc, [(5, 9)].into_iter());
    assert_eq!(
        index.symbol_of(7, 1),
        None,
        "the pair's earlier orders are dropped"
    );
    assert_eq!(index.symbol_of(9, 5).as_deref(), Some("btcusdt"));
    assert_eq!(
        index.symbol_of(7, 3).as_deref(),
        Some("ethusdt"),
        "another pair's orders stay"
    );
}

#[test]
fn a_batch_takes_what_is_queued_up_to_max_batch_and_leaves_the_rest_queued() {
    let (send, mut queue) = mpsc::channel(MAX_BATCH + 10);
    for _ in 0..MAX_BATCH + 10 {
        send.try_send(quote(Vec::new(), Vec::new(), dec!(1)))
            .unwrap();
    }
    let first = queue.try_recv().unwrap();
    assert_eq!(batch_from(first, &mut queue).len(), MAX_BATCH);
    let first = queue.try_recv().unwrap();
    assert_eq!(batch_from(first, &mut queue).len(), 10);
    assert!(queue.try_recv().is_err(), "nothing is left queued");
}

#[tokio::test]
async fn the_ladder_cuts_levels_to_the_makers_balances_and_drops_a_level_cut_to_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, MAKER, "usdt", dec!(150)).await;
    fund(&db, MAKER, "btc", dec!(0.15)).await;
    let context = context(&db);
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    market.rebuild().await.unwrap();
    market
        .process(vec![quote(
            vec![
                level(dec!(100), dec!(1)),
                level(dec!(99), dec!(1)),
                level(dec!(98), dec!(1)),
            ],
            vec![
                level(dec!(101), dec!(0.1)),
                level(dec!(102), dec!(0.1)),
                level(dec!(103), dec!(0.1)),
            ],
            dec!(100.5),
        )])
        .await;
    let book = context
        .hub
        .book("btcusdt")
        .expect("the ladder is published");
    // 150 USDT buys 1 at 100, then 50 / 99 = 0.50505 (on the step grid) at 99; 0.00005 is left.
    assert_eq!(
        book.bids,
        [level(dec!(100), dec!(1)), level(dec!(99), dec!(0.50505))]
    );
    assert_eq!(
        book.asks,
        [level(dec!(101), dec!(0.1)), level(dec!(102), dec!(0.05))]
    );
}

#[tokio::test]
async fn an_order_refused_in_a_batch_takes_back_only_its_own_hold_and_the_others_commit() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, AccountRef::funding(1), "usdt", dec!(1000)).await;
    fund(&db, AccountRef::funding(3), "btc", dec!(1)).await;
    fund(&db, AccountRef::funding(4), "usdt", dec!(2000)).await;
    let context = context(&db);
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    market.rebuild().await.unwrap();
    let (buy, buy_answer) = order(1, OrderSide::Buy, limit(dec!(100), dec!(1)));
    // User 2 owns nothing.
    let (broke, broke_answer) = order(2, OrderSide::Buy, limit(dec!(100), dec!(1)));
    let (sell, sell_answer) = order(3, OrderSide::Sell, limit(dec!(200), dec!(0.5)));
    // Post-only, but it would take user 3's ask placed just before it in the same batch.
    let (mut taker, taker_answer) = submit(4, OrderSide::Buy, limit(dec!(200), dec!(0.5)));
    taker.post_only = true;
    market
        .process(vec![buy, broke, sell, Command::Submit(Box::new(taker))])
        .await;

    let bought = placed(buy_answer.await.unwrap());
    assert_eq!(bought.status, OrderStatus::WaitDeal);
    assert_eq!(
        broke_answer.await.unwrap().unwrap_err(),
        Refusal::rule(
            "quantity",
            &Violation::InsufficientBalance {
                available: Decimal::ZERO
            }
        )
    );
    let sold = placed(sell_answer.await.unwrap());
    assert_eq!(sold.status, OrderStatus::WaitDeal);
    let refused = taker_answer.await.unwrap().unwrap_err();
    assert_eq!(refused.msg, Msg::PostOnlyWouldTake);
    assert_eq!(refused.field.as_deref(), Some("postOnly"));

    assert_eq!(
        balance(&db, AccountRef::funding(1), "usdt").await,
        dec!(900)
    );
    assert_eq!(balance(&db, frozen(1), "usdt").await, dec!(100));
    assert_eq!(balance(&db, AccountRef::funding(3), "btc").await, dec!(0.5));
    assert_eq!(balance(&db, frozen(3), "btc").await, dec!(0.5));
    assert_eq!(
        balance(&db, AccountRef::funding(4), "usdt").await,
        dec!(2000)
    );
    assert_eq!(balance(&db, frozen(4), "usdt").await, Decimal::ZERO);
    let rows = order_rows(&db).await;
    let stored: Vec<(i64, i64)> = rows.iter().map(|row| (row.id, row.user_id)).collect();
    assert_eq!(
        stored,
        [(bought.id, 1), (sold.id, 3)],
        "only the placed orders are stored"
    );
    assert_eq!(
        market.book.len(),
        2,
        "the refused orders never reached the book"
    );
    let index = &context.open_orders;
    assert_eq!(index.symbol_of(1, bought.id).as_deref(), Some("btcusdt"));
    assert_eq!(index.symbol_of(3, sold.id).as_deref(), Some("btcusdt"));
    assert!(audit_is_clean(&db).await);
}

#[tokio::test]
async fn only_the_owner_cancels_an_open_order_and_an_unknown_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, AccountRef::funding(1), "usdt", dec!(1000)).await;
    let context = context(&db);
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context.clone());
    market.rebuild().await.unwrap();
    let (buy, answer) = order(1, OrderSide::Buy, limit(dec!(100), dec!(1)));
    market.process(vec![buy]).await;
    let id = placed(answer.await.unwrap()).id;

    let (not_theirs, not_theirs_answer) = cancel(2, id);
    let (unknown, unknown_answer) = cancel(1, id + 1000);
    let (own, own_answer) = cancel(1, id);
    market.process(vec![not_theirs, unknown, own]).await;
    for answer in [not_theirs_answer, unknown_answer] {
        let refused = answer.await.unwrap().unwrap_err();
        assert_eq!(refused.msg, Msg::OrderNotFound);
        assert_eq!(refused.field.as_deref(), Some("id"));
    }
    let cancelled = own_answer.await.unwrap().unwrap();
    assert_eq!(cancelled.status, OrderStatus::Cancelled);
    assert_eq!(cancelled.cancel_reason.as_deref(), Some("user"));
    assert_eq!(
        balance(&db, AccountRef::funding(1), "usdt").await,
        dec!(1000)
    );
    assert_eq!(balance(&db, frozen(1), "usdt").await, Decimal::ZERO);
    assert!(market.book.is_empty());
    assert_eq!(context.open_orders.symbol_of(1, id), None);
    let rows = order_rows(&db).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, OrderStatus::Cancelled.as_str());

    // Once finished, the order is known but no longer open.
    let (again, again_answer) = cancel(1, id);
    market.process(vec![again]).await;
    assert_eq!(
        again_answer.await.unwrap().unwrap_err().msg,
        Msg::OrderNotOpen
    );
    assert!(audit_is_clean(&db).await);
}

#[tokio::test]
async fn a_key_twice_in_one_batch_replays_the_first_order_and_refuses_another_request() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, AccountRef::funding(1), "usdt", dec!(1000)).await;
    let mut market = SpotEngine::new(rules("btc", dec!(0.01), dec!(0.00001)), context(&db));
    market.rebuild().await.unwrap();
    let keyed = |hash: &str| {
        let (mut submit, answer) = submit(1, OrderSide::Buy, limit(dec!(100), dec!(1)));
        submit.idempotency = Some(Idempotency {
            user_id: 1,
            key: "order-1".to_owned(),
            operation: "submitSpotOrder",
            request_hash: hash.to_owned(),
        });
        (Command::Submit(Box::new(submit)), answer)
    };
    let (first, first_answer) = keyed("same");
    let (retry, retry_answer) = keyed("same");
    let (other, other_answer) = keyed("different");
    market.process(vec![first, retry, other]).await;

    let order = placed(first_answer.await.unwrap());
    match retry_answer.await.unwrap() {
        Ok(Answer::Replayed(json)) => assert_eq!(json, crate::funds::api::stored(&order)),
        other => panic!("expected the first answer again, got {other:?}"),
    }
    assert_eq!(
        other_answer.await.unwrap().unwrap_err().msg,
        Msg::IdempotencyKeyReused
    );
    assert_eq!(order_rows(&db).await.len(), 1, "one order was placed");
    assert_eq!(
        balance(&db, frozen(1), "usdt").await,
        dec!(100),
        "and held once"
    );

    // The key was stored with the batch: a later retry is answered from the database.
    let (later, later_answer) = keyed("same");
    market.process(vec![later]).await;
    assert!(matches!(
        later_answer.await.unwrap(),
        Ok(Answer::Replayed(_))
    ));
    assert_eq!(order_rows(&db).await.len(), 1);
}

#[tokio::test]
async fn a_rebuild_puts_the_stored_open_orders_back_in_the_book_and_replaces_the_pairs_index() {
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, AccountRef::funding(1), "usdt", dec!(1000)).await;
    let context = context(&db);
    let pair = rules("btc", dec!(0.01), dec!(0.00001));
    let mut market = SpotEngine::new(pair.clone(), context.clone());
    market.rebuild().await.unwrap();
    let (resting, resting_answer) = order(1, OrderSide::Buy, limit(dec!(100), dec!(1)));
    let (stop, stop_answer) = order(
        1,
        OrderSide::Buy,
        OrderSpec::StopLimit {
            trigger: dec!(90),
            price: dec!(91),
            quantity: dec!(1),
        },
    );
    market.process(vec![resting, stop]).await;
    let resting = placed(resting_answer.await.unwrap());
    let stop = placed(stop_answer.await.unwrap());
    assert_eq!(stop.status, OrderStatus::WaitTrigger);
    // An entry the database no longer backs, as after a failed batch.
    context
        .open_orders
        .update(&Arc::from("btcusdt"), &[(999, 1)], std::iter::empty());

    // A restart: a new engine on the same database.
    let mut restarted = SpotEngine::new(pair, context.clone());
    restarted.rebuild().await.unwrap();
    assert_eq!(restarted.book.len(), 1, "the limit order rests again");
    assert_eq!(restarted.book.stop_count(), 1, "the stop waits again");
    assert_eq!(restarted.open.len(), 2);
    let index = &context.open_orders;
    assert_eq!(index.symbol_of(1, resting.id).as_deref(), Some("btcusdt"));
    assert_eq!(index.symbol_of(1, stop.id).as_deref(), Some("btcusdt"));
    assert_eq!(index.symbol_of(1, 999), None);

    // The rebuilt order is live: its owner cancels it and gets the hold back.
    let (cancelled, answer) = cancel(1, resting.id);
    restarted.process(vec![cancelled]).await;
    assert_eq!(
        answer.await.unwrap().unwrap().status,
        OrderStatus::Cancelled
    );
    assert_eq!(
        balance(&db, frozen(1), "usdt").await,
        dec!(91),
        "the stop's hold is left"
    );
    assert!(audit_is_clean(&db).await);
}

#[tokio::test]
async fn a_stale_owners_batch_is_refused_whole_and_stores_nothing() {
    use crate::cluster::fence;
    let dir = tempfile::tempdir().unwrap();
    let db = database(&dir).await;
    fund(&db, AccountRef::funding(7), "usdt", dec!(10000)).await;
    let context = context(&db);
    let pair = rules("btc", dec!(0.01), dec!(0.00001));

    // Instance a owns the pair and places an order.
    let first = Arc::new(fence::take(&db, "spot:btcusdt", "a").await.unwrap());
    let mut stale = SpotEngine::new(pair.clone(), context.clone()).with_fence(first.clone());
    stale.rebuild().await.unwrap();
    let (command, answer) = order(7, OrderSide::Buy, limit(dec!(100), dec!(1)));
    stale.process(vec![command]).await;
    placed(answer.await.unwrap());

    // Instance b takes the pair over (a still runs, as if paused) and rebuilds it.
    let second = Arc::new(fence::take(&db, "spot:btcusdt", "b").await.unwrap());
    assert!(second.token() > first.token());
    let mut owner = SpotEngine::new(pair, context).with_fence(second.clone());
    owner.rebuild().await.unwrap();
    assert_eq!(owner.open.len(), 1);
    let (rows, journal) = (order_rows(&db).await, entries(&db).await);

    // a's next batch — an order and a cancellation — is refused whole: nothing of it is stored.
    let (command, refused) = order(7, OrderSide::Buy, limit(dec!(101), dec!(1)));
    let (cancelling, refused_cancel) = cancel(7, rows[0].id);
    stale.process(vec![command, cancelling]).await;
    let refusal = refused
        .await
        .unwrap()
        .expect_err("the stale owner's order is refused");
    assert_eq!(refusal.msg, Msg::TradingBusy);
    refused_cancel
        .await
        .unwrap()
        .expect_err("the stale owner's cancellation is refused");
    assert!(first.is_lost() && !second.is_lost());
    assert_eq!(order_rows(&db).await, rows, "the stale batch wrote orders");
    assert_eq!(entries(&db).await, journal, "the stale batch wrote entries");
    assert!(audit_is_clean(&db).await);

    // The new owner writes.
    let (command, answer) = order(7, OrderSide::Buy, limit(dec!(102), dec!(1)));
    owner.process(vec![command]).await;
    placed(answer.await.unwrap());
    assert_eq!(order_rows(&db).await.len(), 2);
}
