//! The engine's tests: whole batches run against a fresh SQLite database, their outcomes read back
//! from the ledger, the published book and the answers.

use std::sync::Arc;

use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{DatabaseConnection, EntityTrait, PaginatorTrait};
use tokio::sync::{Mutex, broadcast, oneshot};

use super::super::rules::PairRules;
use super::super::views::{OrderSide, TimeInForce};
use super::{Answer, Command, EngineContext, OrderSpec, SpotEngine, Submit};
use crate::db::Writer;
use crate::entity::journal_entry;
use crate::funds::ledger::{self, AccountRef, House, NewEntry, Posting};
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

fn order(
    user_id: i64,
    side: OrderSide,
    spec: OrderSpec,
) -> (Command, oneshot::Receiver<Result<Answer, Refusal>>) {
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
    (Command::Submit(Box::new(submit)), answer)
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
