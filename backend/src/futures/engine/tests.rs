//! Tests of what a mark tick sets off, on an engine loaded over a temporary SQLite database with a
//! price source the test sets: each tick publishes a mark and a ladder around it and makes the
//! engine act on it, as the run loop and `Command::Evaluate` do. Every test checks the rows, the
//! balances and that the journal stays balanced (the ledger audit).

use std::sync::{Arc, Mutex};

use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
};
use tempfile::TempDir;
use tokio::sync::watch;
use wasm_core::margin::{MarginMode, Side, TierTable};

use super::{Answer, Engine, OrderSpec, StopSpec, Target};
use crate::config::FuturesConfig;
use crate::entity::{
    futures_funding, futures_order, futures_position, futures_stop, journal_entry, ledger_account,
};
use crate::funds::audit;
use crate::funds::ledger::{self, AccountRef, House, NewEntry, Posting};
use crate::futures::position::SymbolRules;
use crate::futures::registry::{FuturesRegistry, MarkPrice, PriceSource};
use crate::futures::settle;
use crate::futures::views::{FuturesOrderType, OrderSide};
use crate::market::book::{BookSnapshot, Level};

const BTC: &str = "btcusdt";
const FUND: AccountRef = AccountRef::House(House::SecurityFund);

/// The mark, index and ladder the test publishes.
#[derive(Default)]
struct Prices(Mutex<Option<(MarkPrice, Arc<BookSnapshot>)>>);

impl PriceSource for Prices {
    fn mark(&self, _: &str) -> Option<MarkPrice> {
        self.0.lock().unwrap().as_ref().map(|(mark, _)| *mark)
    }

    fn book(&self, _: &str) -> Option<Arc<BookSnapshot>> {
        self.0
            .lock()
            .unwrap()
            .as_ref()
            .map(|(_, book)| book.clone())
    }
}

/// An engine of BTCUSDT (the default tiers, 0.02 % maker and 0.05 % taker fee, 10 % of fees to
/// the security fund) over its own database.
struct Bench {
    _dir: TempDir,
    db: DatabaseConnection,
    prices: Arc<Prices>,
    registry: Arc<FuturesRegistry>,
    rules: Arc<SymbolRules>,
    engine: Engine,
    ts: i64,
}

impl Bench {
    async fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let config = crate::config::Config {
            data_dir: dir.path().to_path_buf(),
            ..crate::config::Config::default()
        };
        let db = crate::db::connect(&config).await.unwrap();
        let prices = Arc::new(Prices::default());
        let futures = FuturesConfig {
            // No engine of its own: the registry only builds what the engines share.
            enabled: false,
            ..FuturesConfig::default()
        };
        let (_, shutdown) = watch::channel(false);
        let registry = FuturesRegistry::start(
            db.clone(),
            prices.clone(),
            futures.clone(),
            dec!(10),
            Arc::default(),
            None,
            shutdown,
        )
        .await
        .unwrap();
        let rules = Arc::new(SymbolRules {
            symbol: BTC.to_owned(),
            tick: dec!(0.01),
            step: dec!(0.0001),
            tiers: TierTable::new(FuturesConfig::default_tiers(Decimal::ONE)).unwrap(),
            maker_fee: futures.maker_fee_rate,
            taker_fee: futures.taker_fee_rate,
        });
        let engine = Engine::load(rules.clone(), registry.shared().expect("engines run here"))
            .await
            .unwrap();
        Self {
            _dir: dir,
            db,
            prices,
            registry,
            rules,
            engine,
            ts: 1,
        }
    }

    /// Another engine of the symbol, rebuilt from the database, writing under `fence` (an owner
    /// of the engines in cluster mode).
    async fn engine_under(&self, fence: Arc<crate::cluster::Fence>) -> Engine {
        let shared = self.registry.shared_under(Some(fence));
        Engine::load(self.rules.clone(), shared).await.unwrap()
    }

    /// Publishes `mark` (the index too) with a ladder around it — asks `mark` (0.5), `mark + 10`
    /// (100); bids `mark` (0.5), `mark − 10` (100) — and makes the engine act on it.
    async fn tick(&mut self, mark: Decimal) {
        self.ts += 1;
        let level = |price: Decimal, quantity: Decimal| Level { price, quantity };
        let book = BookSnapshot {
            seq: self.ts as u64,
            bids: vec![level(mark, dec!(0.5)), level(mark - dec!(10), dec!(100))],
            asks: vec![level(mark, dec!(0.5)), level(mark + dec!(10), dec!(100))],
            ts: self.ts,
        };
        let price = MarkPrice {
            mark,
            index: mark,
            ts: self.ts,
        };
        *self.prices.0.lock().unwrap() = Some((price, Arc::new(book)));
        self.engine.on_mark(price).await;
    }

    /// Puts `amount` USDT into the user's trading wallet, as a deposit and a transfer do.
    async fn fund(&self, user_id: i64, amount: Decimal) {
        let entry = NewEntry {
            kind: "deposit".into(),
            reference: format!("test:{user_id}"),
            user_id: Some(user_id),
            actor_id: None,
            memo: String::new(),
            postings: Posting::transfer(
                AccountRef::House(House::DepositsInTransit),
                settle::trading(user_id),
                "usdt",
                amount,
            )
            .to_vec(),
        };
        ledger::post(&self.db, &entry).await.unwrap();
    }

    async fn balance(&self, account: AccountRef) -> Decimal {
        ledger::balance(&self.db, account, "usdt").await.unwrap()
    }

    /// A bench where ALICE (20,000 USDT) holds a 5× isolated long of 0.2 BTC opened at the mark of
    /// 50,000, with a take profit at 52,000 and a stop loss at 48,000.
    async fn with_long_and_tp_sl() -> Self {
        let mut bench = Self::new().await;
        bench.fund(ALICE, dec!(20000)).await;
        bench.tick(dec!(50000)).await;
        bench
            .submit(
                ALICE,
                market(OrderSide::Buy, dec!(0.2), dec!(5), MarginMode::Isolated),
            )
            .await;
        bench
            .engine
            .set_tp_sl(ALICE, Some(dec!(52000)), Some(dec!(48000)))
            .await
            .unwrap();
        bench
    }

    /// Places an order and gives its id.
    async fn submit(&mut self, user_id: i64, spec: OrderSpec) -> i64 {
        match self.engine.submit(user_id, spec, None).await {
            Ok(Answer::Done(order)) => order.id,
            other => panic!("the order was not placed: {other:?}"),
        }
    }

    async fn order(&self, id: i64) -> futures_order::Model {
        futures_order::Entity::find_by_id(id)
            .one(&self.db)
            .await
            .unwrap()
            .unwrap()
    }

    /// The user's orders, newest first.
    async fn orders_of(&self, user_id: i64) -> Vec<futures_order::Model> {
        futures_order::Entity::find()
            .filter(futures_order::Column::UserId.eq(user_id))
            .order_by_desc(futures_order::Column::Id)
            .all(&self.db)
            .await
            .unwrap()
    }

    /// The user's position rows, newest first.
    async fn positions_of(&self, user_id: i64) -> Vec<futures_position::Model> {
        futures_position::Entity::find()
            .filter(futures_position::Column::UserId.eq(user_id))
            .order_by_desc(futures_position::Column::Id)
            .all(&self.db)
            .await
            .unwrap()
    }

    /// The journal entries of `kind`.
    async fn entries(&self, kind: &str) -> Vec<journal_entry::Model> {
        journal_entry::Entity::find()
            .filter(journal_entry::Column::Kind.eq(kind))
            .all(&self.db)
            .await
            .unwrap()
    }

    /// Every row a tick could write, to compare before and after one.
    async fn snapshot(&self) -> Snapshot {
        Snapshot {
            entries: journal_entry::Entity::find().count(&self.db).await.unwrap(),
            fundings: futures_funding::Entity::find()
                .count(&self.db)
                .await
                .unwrap(),
            accounts: ledger_account::Entity::find()
                .order_by_asc(ledger_account::Column::Id)
                .all(&self.db)
                .await
                .unwrap(),
            orders: futures_order::Entity::find()
                .order_by_asc(futures_order::Column::Id)
                .all(&self.db)
                .await
                .unwrap(),
            positions: futures_position::Entity::find()
                .order_by_asc(futures_position::Column::Id)
                .all(&self.db)
                .await
                .unwrap(),
            stops: futures_stop::Entity::find()
                .order_by_asc(futures_stop::Column::Id)
                .all(&self.db)
                .await
                .unwrap(),
        }
    }

    async fn assert_audit_clean(&self) {
        let report = audit::audit(&self.db).await.unwrap();
        assert!(report.is_clean(), "{:?}", report.problems);
        assert!(report.entries > 0);
    }
}

#[derive(Debug, PartialEq)]
struct Snapshot {
    entries: u64,
    fundings: u64,
    accounts: Vec<ledger_account::Model>,
    orders: Vec<futures_order::Model>,
    positions: Vec<futures_position::Model>,
    stops: Vec<futures_stop::Model>,
}

fn market(side: OrderSide, quantity: Decimal, leverage: Decimal, mode: MarginMode) -> OrderSpec {
    OrderSpec {
        side,
        order_type: FuturesOrderType::Market,
        price: None,
        quantity: Some(quantity),
        leverage: Some(leverage),
        mode: Some(mode),
        reduce_only: false,
        close_position: false,
    }
}

fn limit(side: OrderSide, price: Decimal, quantity: Decimal, leverage: Decimal) -> OrderSpec {
    OrderSpec {
        order_type: FuturesOrderType::Limit,
        price: Some(price),
        ..market(side, quantity, leverage, MarginMode::Isolated)
    }
}

fn number(text: &str) -> Decimal {
    text.parse().unwrap()
}

const ALICE: i64 = 7;
const BOB: i64 = 8;

#[tokio::test]
async fn a_mark_crossing_a_resting_limit_order_fills_it_at_its_price_with_the_maker_fee() {
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(10000)).await;
    bench.tick(dec!(50000)).await;
    // The asks start at 50,000: a buy at 49,000 rests, holding its margin and taker fee.
    let id = bench
        .submit(
            ALICE,
            limit(OrderSide::Buy, dec!(49000), dec!(0.1), dec!(10)),
        )
        .await;
    let hold = dec!(490) + dec!(2.45);
    assert_eq!(bench.order(id).await.status, "waitDeal");
    assert_eq!(number(&bench.order(id).await.hold_remaining), hold);
    assert_eq!(bench.balance(settle::margin(ALICE)).await, hold);
    assert!(bench.engine.triggers.get(Target::Limit(id)).is_some());

    // Above its price: still resting.
    bench.tick(dec!(49100)).await;
    assert_eq!(bench.order(id).await.status, "waitDeal");

    // Through it: filled at 49,000, not at the mark, with the maker fee (0.02 %).
    bench.tick(dec!(48990)).await;
    let order = bench.order(id).await;
    assert_eq!(order.status, "dealTotol");
    assert_eq!(number(&order.filled_quantity), dec!(0.1));
    assert_eq!(number(&order.filled_value), dec!(4900));
    assert_eq!(number(&order.fee), dec!(0.98));
    assert_eq!(number(&order.hold_remaining), dec!(0));
    let rows = bench.positions_of(ALICE).await;
    assert_eq!(rows.len(), 1);
    let position = &rows[0];
    assert_eq!(position.status, "open");
    assert_eq!(position.side, "long");
    assert_eq!(number(&position.size), dec!(0.1));
    assert_eq!(number(&position.entry_price), dec!(49000));
    assert_eq!(number(&position.margin), dec!(490));
    assert!(position.liquidation_price.is_some());
    // The hold went back; the margin and the fee left the wallet.
    assert_eq!(bench.balance(settle::margin(ALICE)).await, dec!(490));
    assert_eq!(
        bench.balance(settle::trading(ALICE)).await,
        dec!(10000) - dec!(490) - dec!(0.98)
    );
    let fills = bench.entries("futures_fill").await;
    assert_eq!(fills.len(), 1);
    assert_eq!(fills[0].reference, format!("futures_order:{id}"));
    // Memory follows the rows: the order left the book and the index, the position is placed.
    assert!(bench.engine.orders.is_empty());
    assert!(bench.engine.triggers.get(Target::Limit(id)).is_none());
    assert_eq!(bench.engine.positions[&ALICE].id, position.id);
    assert!(
        bench
            .engine
            .triggers
            .get(Target::Liquidation(ALICE))
            .is_some()
    );
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_reaching_the_take_profit_closes_the_long_at_market() {
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(20000)).await;
    bench.tick(dec!(50000)).await;
    bench
        .submit(
            ALICE,
            market(OrderSide::Buy, dec!(0.2), dec!(5), MarginMode::Isolated),
        )
        .await;
    // Margin 2,000; taker fee 5.
    assert_eq!(bench.balance(settle::trading(ALICE)).await, dec!(17995));
    bench
        .engine
        .set_tp_sl(ALICE, Some(dec!(52000)), Some(dec!(48000)))
        .await
        .unwrap();

    bench.tick(dec!(51990)).await;
    assert!(bench.engine.positions.contains_key(&ALICE));
    assert_eq!(bench.positions_of(ALICE).await[0].status, "open");

    bench.tick(dec!(52000)).await;
    assert!(!bench.engine.positions.contains_key(&ALICE));
    let rows = bench.positions_of(ALICE).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].status, "closed");
    assert_eq!(number(&rows[0].realised_pnl), dec!(400));
    assert_eq!(number(&rows[0].closed_size), dec!(0.2));
    let close = &bench.orders_of(ALICE).await[0];
    assert_eq!(close.source, "take_profit");
    assert_eq!(close.side, "sell");
    assert_eq!(close.status, "dealTotol");
    assert!(close.reduce_only && close.close_position);
    // Closed against the bids at 52,000 with the taker fee (0.05 %).
    assert_eq!(number(&close.filled_value), dec!(10400));
    assert_eq!(number(&close.fee), dec!(5.2));
    assert_eq!(bench.balance(settle::margin(ALICE)).await, dec!(0));
    assert_eq!(
        bench.balance(settle::trading(ALICE)).await,
        dec!(17995) + dec!(2000) + dec!(400) - dec!(5.2)
    );
    for target in [
        Target::TakeProfit(ALICE),
        Target::StopLoss(ALICE),
        Target::Liquidation(ALICE),
    ] {
        assert!(bench.engine.triggers.get(target).is_none(), "{target:?}");
    }
    assert_eq!(bench.entries("futures_fill").await.len(), 2);
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_reaching_the_stop_loss_closes_the_short_at_market() {
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(20000)).await;
    bench.tick(dec!(50000)).await;
    bench
        .submit(
            ALICE,
            market(OrderSide::Sell, dec!(0.2), dec!(5), MarginMode::Isolated),
        )
        .await;
    bench
        .engine
        .set_tp_sl(ALICE, None, Some(dec!(51000)))
        .await
        .unwrap();
    assert_eq!(
        bench.engine.triggers.get(Target::StopLoss(ALICE)),
        Some((crate::futures::index::Direction::Above, dec!(51000)))
    );

    bench.tick(dec!(51000)).await;
    assert!(!bench.engine.positions.contains_key(&ALICE));
    let row = &bench.positions_of(ALICE).await[0];
    assert_eq!(row.status, "closed");
    assert_eq!(number(&row.realised_pnl), dec!(-200));
    let close = &bench.orders_of(ALICE).await[0];
    assert_eq!(close.source, "stop_loss");
    assert_eq!(close.side, "buy");
    assert_eq!(close.status, "dealTotol");
    assert_eq!(number(&close.filled_value), dec!(10200));
    // Open fee 5, loss 200, close fee 5.1.
    assert_eq!(bench.balance(settle::margin(ALICE)).await, dec!(0));
    assert_eq!(
        bench.balance(settle::trading(ALICE)).await,
        dec!(20000) - dec!(5) - dec!(200) - dec!(5.1)
    );
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_reaching_a_stop_order_closes_its_quantity_and_marks_it_triggered() {
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(20000)).await;
    bench.tick(dec!(50000)).await;
    bench
        .submit(
            ALICE,
            market(OrderSide::Buy, dec!(0.2), dec!(5), MarginMode::Isolated),
        )
        .await;
    let stop = StopSpec {
        position_side: None,
        trigger_price: dec!(49000),
        quantity: Some(dec!(0.1)),
    };
    let Ok(Answer::Done(stop)) = bench.engine.set_stop(ALICE, stop, None).await else {
        panic!("the stop order was not placed");
    };

    bench.tick(dec!(49000)).await;
    let position = &bench.engine.positions[&ALICE];
    assert_eq!(position.size, dec!(0.1));
    let row = &bench.positions_of(ALICE).await[0];
    assert_eq!(row.status, "open");
    assert_eq!(number(&row.size), dec!(0.1));
    let close = &bench.orders_of(ALICE).await[0];
    assert_eq!(close.source, "stop");
    assert_eq!(number(&close.filled_quantity), dec!(0.1));
    assert!(!close.close_position);
    let stop = futures_stop::Entity::find_by_id(stop.id)
        .one(&bench.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stop.status, "triggered");
    assert_eq!(stop.order_id, Some(close.id));
    assert!(bench.engine.stops.is_empty());
    // Half the margin came back: what the bucket holds is the half still open.
    assert_eq!(bench.balance(settle::margin(ALICE)).await, dec!(1000));
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_past_the_liquidation_price_liquidates_and_cancels_the_users_orders() {
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(10000)).await;
    bench.tick(dec!(50000)).await;
    bench
        .submit(
            ALICE,
            market(OrderSide::Buy, dec!(0.5), dec!(10), MarginMode::Isolated),
        )
        .await;
    let lp = bench.engine.positions[&ALICE].liquidation_price.unwrap();
    assert_eq!(
        bench.positions_of(ALICE).await[0]
            .liquidation_price
            .as_deref()
            .map(number),
        Some(lp)
    );
    // A resting buy far below and a stop order below the mark, neither reached by the path.
    let resting = bench
        .submit(
            ALICE,
            limit(OrderSide::Buy, dec!(40000), dec!(0.01), dec!(10)),
        )
        .await;
    let stop = StopSpec {
        position_side: None,
        trigger_price: dec!(30000),
        quantity: None,
    };
    let Ok(Answer::Done(stop)) = bench.engine.set_stop(ALICE, stop, None).await else {
        panic!("the stop order was not placed");
    };
    // Margin 2,500 and taker fee 12.5; then the resting order's hold (40 + 0.2).
    assert_eq!(
        bench.balance(settle::trading(ALICE)).await,
        dec!(7487.5) - dec!(40.2)
    );

    bench.tick(lp + dec!(1)).await;
    assert!(bench.engine.positions.contains_key(&ALICE));

    let fund_before = bench.balance(FUND).await;
    let mark = lp - dec!(5);
    bench.tick(mark).await;
    assert!(!bench.engine.positions.contains_key(&ALICE));
    let row = &bench.positions_of(ALICE).await[0];
    assert_eq!(row.status, "liquidated");
    // What the margin held beyond the loss went to the security fund.
    let loss = (mark - dec!(50000)) * dec!(0.5);
    let fee = number(&row.liquidation_fee);
    assert_eq!(fee, dec!(2500) + loss);
    assert!(fee > dec!(0));
    assert_eq!(bench.balance(FUND).await - fund_before, fee);
    let orders = bench.orders_of(ALICE).await;
    let liquidation = orders.iter().find(|o| o.source == "liquidation").unwrap();
    assert_eq!(liquidation.status, "dealTotol");
    assert_eq!(number(&liquidation.filled_value), dec!(0.5) * mark);
    let cancelled = orders.iter().find(|o| o.id == resting).unwrap();
    assert_eq!(cancelled.status, "cancelled");
    assert_eq!(cancelled.cancel_reason.as_deref(), Some("liquidation"));
    let stop = futures_stop::Entity::find_by_id(stop.id)
        .one(&bench.db)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(stop.status, "cancelled");
    // The margin is gone and the hold came back.
    assert_eq!(bench.balance(settle::margin(ALICE)).await, dec!(0));
    assert_eq!(bench.balance(settle::trading(ALICE)).await, dec!(7487.5));
    assert_eq!(bench.entries("futures_liquidation").await.len(), 1);
    assert!(bench.engine.orders.is_empty() && bench.engine.stops.is_empty());
    assert!(bench.engine.triggers.is_empty());
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_past_a_cross_liquidation_price_liquidates_against_the_wallet() {
    let mut bench = Bench::new().await;
    bench.fund(BOB, dec!(3000)).await;
    bench.tick(dec!(50000)).await;
    bench
        .submit(
            BOB,
            market(OrderSide::Sell, dec!(0.5), dec!(20), MarginMode::Cross),
        )
        .await;
    let position = &bench.engine.positions[&BOB];
    assert_eq!(position.side, Side::Short);
    let lp = position.liquidation_price.unwrap();
    // The whole wallet backs it: nothing is in the margin bucket.
    assert_eq!(bench.balance(settle::margin(BOB)).await, dec!(0));

    bench.tick(lp - dec!(1)).await;
    assert!(bench.engine.positions.contains_key(&BOB));
    bench.tick(lp + dec!(5)).await;
    assert!(!bench.engine.positions.contains_key(&BOB));
    assert_eq!(bench.positions_of(BOB).await[0].status, "liquidated");
    assert_eq!(bench.orders_of(BOB).await[0].source, "liquidation");
    assert!(bench.balance(settle::trading(BOB)).await >= dec!(0));
    assert_eq!(
        bench.engine.shared.cross_totals(BOB, None),
        Default::default(),
        "the position's cross figures left the registry"
    );
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_mark_that_crosses_nothing_writes_nothing() {
    let mut bench = Bench::with_long_and_tp_sl().await;
    bench
        .submit(
            ALICE,
            limit(OrderSide::Buy, dec!(49000), dec!(0.01), dec!(5)),
        )
        .await;
    let stop = StopSpec {
        position_side: None,
        trigger_price: dec!(51000),
        quantity: Some(dec!(0.1)),
    };
    assert!(matches!(
        bench.engine.set_stop(ALICE, stop, None).await,
        Ok(Answer::Done(_))
    ));
    assert_eq!(bench.engine.triggers.len(), 5);
    let before = bench.snapshot().await;
    let position = bench.engine.positions[&ALICE].clone();

    // Between every trigger: the buy at 49,000 and the stop at 51,000, the stop loss at 48,000 and
    // the take profit at 52,000, the liquidation price far below.
    for mark in [dec!(50500), dec!(49500), dec!(49000.01), dec!(50999.99)] {
        bench.tick(mark).await;
        assert_eq!(bench.snapshot().await, before, "at {mark}");
    }
    assert_eq!(bench.engine.positions[&ALICE].id, position.id);
    assert_eq!(bench.engine.positions[&ALICE].size, position.size);
    assert_eq!(bench.engine.orders.len(), 1);
    assert_eq!(bench.engine.stops.len(), 1);
    assert_eq!(bench.engine.triggers.len(), 5);
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn clearing_the_take_profit_and_stop_loss_needs_no_mark_setting_one_does() {
    let mut bench = Bench::with_long_and_tp_sl().await;
    // The price source loses its mark (a restart before the first tick): what freezing an account
    // does — clearing both — still goes through; setting a price is refused without a mark to
    // check its side against.
    bench.engine.mark = None;
    *bench.prices.0.lock().unwrap() = None;
    let refused = bench
        .engine
        .set_tp_sl(ALICE, Some(dec!(52000)), None)
        .await
        .unwrap_err();
    assert_eq!(refused.msg, crate::i18n::Msg::NoLiquidity);
    let cleared = bench.engine.set_tp_sl(ALICE, None, None).await.unwrap();
    assert_eq!(
        (cleared.take_profit_price, cleared.stop_loss_price),
        (None, None)
    );
    let row = &bench.positions_of(ALICE).await[0];
    assert_eq!(
        (row.take_profit.clone(), row.stop_loss.clone()),
        (None, None)
    );
    for target in [Target::TakeProfit(ALICE), Target::StopLoss(ALICE)] {
        assert!(bench.engine.triggers.get(target).is_none(), "{target:?}");
    }
    bench.assert_audit_clean().await;
}

#[tokio::test]
async fn a_stale_owners_changes_and_funding_are_refused_before_they_write() {
    use crate::cluster::fence;
    let mut bench = Bench::new().await;
    bench.fund(ALICE, dec!(20000)).await;
    bench.tick(dec!(50000)).await;
    // Instance a owns the engines and opens a position.
    let first = Arc::new(fence::take(&bench.db, "futures", "a").await.unwrap());
    bench.engine = bench.engine_under(first.clone()).await;
    let long = market(OrderSide::Buy, dec!(0.1), dec!(5), MarginMode::Isolated);
    bench.submit(ALICE, long.clone()).await;

    // Instance b takes the engines over (a still runs, as if paused) and rebuilds them.
    let second = Arc::new(fence::take(&bench.db, "futures", "b").await.unwrap());
    assert!(second.token() > first.token());
    let mut owner = bench.engine_under(second.clone()).await;
    assert_eq!(owner.positions.len(), 1);
    let before = bench.snapshot().await;

    // a's order and leverage change are refused as "busy": nothing of them is stored.
    let refusal = bench
        .engine
        .submit(ALICE, long.clone(), None)
        .await
        .expect_err("the stale owner's order is refused");
    assert_eq!(refusal.msg, crate::i18n::Msg::TradingBusy);
    assert!(first.is_lost() && !second.is_lost());
    bench
        .engine
        .set_leverage(ALICE, Some(dec!(3)), None)
        .await
        .expect_err("the stale owner's setting is refused");
    assert_eq!(bench.snapshot().await, before, "the stale owner wrote");
    let settings = crate::entity::futures_setting::Entity::find()
        .count(&bench.db)
        .await
        .unwrap();
    assert_eq!(settings, 0, "the stale owner stored a setting");
    // Nor does it pay a funding time or mark it settled.
    let funding_time = crate::clock::now_ms();
    bench.engine.next_funding = funding_time;
    bench.engine.fund().await;
    assert_eq!(
        bench.snapshot().await,
        before,
        "the stale owner paid funding"
    );
    let rounds = || {
        crate::entity::futures_funding_round::Entity::find()
            .filter(crate::entity::futures_funding_round::Column::FundingTime.eq(funding_time))
            .count(&bench.db)
    };
    assert_eq!(
        rounds().await.unwrap(),
        0,
        "the stale owner settled a round"
    );

    // The new owner writes.
    let Ok(Answer::Done(order)) = owner.submit(ALICE, long, None).await else {
        panic!("the new owner's order is placed");
    };
    assert_eq!(order.status, "dealTotol");
    owner
        .set_leverage(ALICE, Some(dec!(3)), None)
        .await
        .unwrap();
    // The new owner pays the funding time, once.
    owner.next_funding = funding_time;
    owner.fund().await;
    assert_eq!(rounds().await.unwrap(), 1);
    let paid = futures_funding::Entity::find()
        .filter(futures_funding::Column::FundingTime.eq(funding_time))
        .count(&bench.db)
        .await
        .unwrap();
    assert_eq!(paid, 1, "ALICE's position pays once");
    bench.assert_audit_clean().await;
}
