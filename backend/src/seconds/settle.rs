//! The settlement rule of seconds contracts, published in `docs/api.md` and on the rules page:
//!
//! 1. The opening price is the newest stored tick of the pair when the order is accepted (its
//!    `seq`, price and time are recorded with the order).
//! 2. The expiry is `accepted_ms + period × 1000`, fixed at acceptance and never extended.
//! 3. The settlement tick is the newest stored tick of the pair with `ts_ms <= expiry`, never one
//!    before the opening tick (when none in between qualifies, the opening tick itself). It is
//!    decided once a stored tick with `ts_ms >= expiry` exists: ticks are appended in time order,
//!    so no later tick can change it, and after a restart an overdue order settles from the stored
//!    series exactly as it would have on time.
//! 4. `up` wins when settlement > opening, `down` when settlement < opening; equal prices are a
//!    tie and return the stake. A win pays `stake × (1 + payout rate)` (wasm-core's
//!    `seconds_preview`, the figures the order form shows).
//!
//! [`outcome`] takes neither the user nor the stake, so the result cannot depend on them; the
//! payout is linear in the stake. [`replay`] recomputes every settled order from the stored ticks.

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, ConnectionTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use wasm_core::margin::{SecondsInput, seconds_preview};

use crate::entity::{market_tick, seconds_order};

/// The name of the rule stored with every order and shown with its settlement.
pub const RULE: &str = "last_tick_at_or_before_expiry";

/// The call of a seconds contract.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    poem_openapi::Enum,
    serde::Serialize,
    serde::Deserialize,
)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The price will be higher at expiry.
    Up,
    /// The price will be lower at expiry.
    Down,
}

impl Direction {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    /// The direction of a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "up" => Some(Direction::Up),
            "down" => Some(Direction::Down),
            _ => None,
        }
    }
}

/// The result of a settled seconds contract.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    poem_openapi::Enum,
    serde::Serialize,
    serde::Deserialize,
)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The call was right: the stake and the profit are paid.
    Win,
    /// The call was wrong: the stake is lost.
    Loss,
    /// The settlement price equals the opening price: the stake is returned.
    Tie,
}

impl Outcome {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win => "win",
            Outcome::Loss => "loss",
            Outcome::Tie => "tie",
        }
    }

    /// The outcome of a stored name.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "win" => Some(Outcome::Win),
            "loss" => Some(Outcome::Loss),
            "tie" => Some(Outcome::Tie),
            _ => None,
        }
    }
}

/// The outcome of a call from the opening and settlement prices alone.
pub fn outcome(direction: Direction, open_price: Decimal, settle_price: Decimal) -> Outcome {
    match (settle_price.cmp(&open_price), direction) {
        (std::cmp::Ordering::Equal, _) => Outcome::Tie,
        (std::cmp::Ordering::Greater, Direction::Up)
        | (std::cmp::Ordering::Less, Direction::Down) => Outcome::Win,
        _ => Outcome::Loss,
    }
}

/// What settlement credits and the signed profit, by wasm-core's `seconds_preview`: a win pays
/// `payout_if_right` (profit `profit_if_right`), a tie `return_if_tie` (profit 0), a loss nothing
/// (profit `−loss_if_wrong`).
pub fn amounts(
    stake: Decimal,
    payout_rate: Decimal,
    outcome: Outcome,
) -> Result<(Decimal, Decimal), wasm_core::CoreError> {
    let preview = seconds_preview(&SecondsInput {
        quantity: stake,
        payout_rate,
        available_balance: None,
    })?;
    Ok(match outcome {
        Outcome::Win => (preview.payout_if_right, preview.profit_if_right),
        Outcome::Tie => (preview.return_if_tie, Decimal::ZERO),
        Outcome::Loss => (Decimal::ZERO, -preview.loss_if_wrong),
    })
}

/// A stored tick: its place in the series, price and time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tick {
    /// `seq` in the pair's series.
    pub seq: i64,
    /// Price.
    pub price: Decimal,
    /// Time, epoch ms.
    pub ts_ms: i64,
}

fn tick_of(row: market_tick::Model) -> Result<Tick, DbErr> {
    let price = wasm_core::money::parse_decimal(&row.price)
        .map_err(|_| DbErr::Custom(format!("tick {} has no decimal price", row.id)))?;
    Ok(Tick {
        seq: row.seq,
        price,
        ts_ms: row.ts_ms,
    })
}

/// The newest stored tick of `symbol` (the opening tick of an order accepted now).
pub async fn newest_tick(db: &impl ConnectionTrait, symbol: &str) -> Result<Option<Tick>, DbErr> {
    market_tick::Entity::find()
        .filter(market_tick::Column::Symbol.eq(symbol))
        .order_by_desc(market_tick::Column::Seq)
        .one(db)
        .await?
        .map(tick_of)
        .transpose()
}

/// The settlement tick of an order of `symbol` opened at tick `open_seq` and expiring at
/// `expiry_ms`: the newest stored tick from the opening tick on with `ts_ms <= expiry_ms` (the
/// opening tick itself when no later one qualifies), or `None` while no stored tick has reached
/// the expiry yet (the series may still grow before it).
pub async fn settlement_tick(
    db: &impl ConnectionTrait,
    symbol: &str,
    open_seq: i64,
    expiry_ms: i64,
) -> Result<Option<Tick>, DbErr> {
    // Seq and time grow together within a pair's series, so both reads scan the (symbol, seq)
    // index from the opening tick on.
    let covering = market_tick::Entity::find()
        .filter(market_tick::Column::Symbol.eq(symbol))
        .filter(market_tick::Column::Seq.gte(open_seq))
        .filter(market_tick::Column::TsMs.gte(expiry_ms))
        .order_by_asc(market_tick::Column::Seq)
        .one(db)
        .await?;
    if covering.is_none() {
        return Ok(None);
    }
    let before = market_tick::Entity::find()
        .filter(market_tick::Column::Symbol.eq(symbol))
        .filter(market_tick::Column::Seq.gte(open_seq))
        .filter(market_tick::Column::TsMs.lte(expiry_ms))
        .order_by_desc(market_tick::Column::Seq)
        .one(db)
        .await?;
    let chosen = match before {
        Some(row) => Some(row),
        None => {
            market_tick::Entity::find()
                .filter(market_tick::Column::Symbol.eq(symbol))
                .filter(market_tick::Column::Seq.eq(open_seq))
                .one(db)
                .await?
        }
    };
    chosen.map(tick_of).transpose()
}

/// A settled order whose stored result differs from the rule replayed on the stored ticks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The order.
    pub order_id: i64,
    /// What differs, in words.
    pub problem: String,
}

/// Re-runs the settlement of every settled order from the stored ticks (opening tick by its
/// `seq`, settlement tick by the rule, outcome and amounts by [`outcome`] and [`amounts`]) and
/// lists every difference from what was stored; empty when every result is reproduced.
pub async fn replay(db: &impl ConnectionTrait) -> Result<Vec<Mismatch>, DbErr> {
    let orders = seconds_order::Entity::find()
        .filter(seconds_order::Column::Status.eq("settled"))
        .order_by_asc(seconds_order::Column::Id)
        .all(db)
        .await?;
    let mut mismatches = Vec::new();
    for order in orders {
        let mut problems = Vec::new();
        let open = market_tick::Entity::find()
            .filter(market_tick::Column::Symbol.eq(&order.symbol))
            .filter(market_tick::Column::Seq.eq(order.open_tick_seq))
            .one(db)
            .await?
            .map(tick_of)
            .transpose()?;
        let settle =
            settlement_tick(db, &order.symbol, order.open_tick_seq, order.expiry_ms).await?;
        let (Some(open), Some(settle)) = (open, settle) else {
            mismatches.push(Mismatch {
                order_id: order.id,
                problem: "its ticks are no longer stored".into(),
            });
            continue;
        };
        let decimal = |text: &str| wasm_core::money::parse_decimal(text).ok();
        if decimal(&order.open_price) != Some(open.price) || order.open_tick_ms != open.ts_ms {
            problems.push(format!("opening tick {} differs", open.seq));
        }
        if order.settle_tick_seq != Some(settle.seq)
            || order.settle_price.as_deref().and_then(decimal) != Some(settle.price)
            || order.settle_tick_ms != Some(settle.ts_ms)
        {
            problems.push(format!(
                "settlement tick {:?} stored, {} by the rule",
                order.settle_tick_seq, settle.seq
            ));
        }
        let replayed = Direction::parse(&order.direction)
            .map(|direction| outcome(direction, open.price, settle.price));
        if order.result.as_deref().and_then(Outcome::parse) != replayed {
            problems.push(format!(
                "result {:?} stored, {:?} by the rule",
                order.result, replayed
            ));
        }
        let figures = match (decimal(&order.stake), decimal(&order.payout_rate), replayed) {
            (Some(stake), Some(rate), Some(result)) => amounts(stake, rate, result).ok(),
            _ => None,
        };
        let stored = (
            order.payout.as_deref().and_then(decimal),
            order.profit.as_deref().and_then(decimal),
        );
        if figures.map(|(payout, profit)| (Some(payout), Some(profit))) != Some(stored) {
            problems.push(format!(
                "payout and profit {stored:?} stored, {figures:?} by the rule"
            ));
        }
        if !problems.is_empty() {
            mismatches.push(Mismatch {
                order_id: order.id,
                problem: problems.join("; "),
            });
        }
    }
    Ok(mismatches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn price() -> impl Strategy<Value = Decimal> {
        (1u64..=10_000_000, 0u32..=8).prop_map(|(units, scale)| Decimal::new(units as i64, scale))
    }

    fn direction() -> impl Strategy<Value = Direction> {
        prop_oneof![Just(Direction::Up), Just(Direction::Down)]
    }

    #[test]
    fn up_down_and_tie() {
        let (a, b) = (Decimal::new(100, 0), Decimal::new(101, 0));
        assert_eq!(outcome(Direction::Up, a, b), Outcome::Win);
        assert_eq!(outcome(Direction::Down, a, b), Outcome::Loss);
        assert_eq!(outcome(Direction::Up, b, a), Outcome::Loss);
        assert_eq!(outcome(Direction::Down, b, a), Outcome::Win);
        assert_eq!(outcome(Direction::Up, a, a), Outcome::Tie);
        assert_eq!(outcome(Direction::Down, a, a), Outcome::Tie);
        let stake = Decimal::new(100, 0);
        let rate = Decimal::new(85, 2);
        assert_eq!(
            amounts(stake, rate, Outcome::Win).unwrap(),
            (Decimal::new(185, 0), Decimal::new(85, 0))
        );
        assert_eq!(
            amounts(stake, rate, Outcome::Tie).unwrap(),
            (stake, Decimal::ZERO)
        );
        assert_eq!(
            amounts(stake, rate, Outcome::Loss).unwrap(),
            (Decimal::ZERO, -stake)
        );
    }

    proptest! {
        /// The outcome is a function of the call and the two prices only: any two holders of the
        /// same call with any stakes get the same outcome, and the payout and profit scale
        /// linearly with the stake.
        #[test]
        fn settlement_ignores_who_and_how_much(
            direction in direction(),
            open in price(),
            settle in price(),
            stakes in proptest::collection::vec(1u32..=50_000, 2..6),
            users in proptest::collection::vec(any::<i64>(), 2..6),
            rate_bp in 0u32..=10_000,
        ) {
            let rate = Decimal::new(i64::from(rate_bp), 4);
            let first = outcome(direction, open, settle);
            // The rule has no user or stake input; holders differ only in these.
            for (_user, _stake) in users.iter().zip(&stakes) {
                prop_assert_eq!(outcome(direction, open, settle), first);
            }
            let unit = amounts(Decimal::ONE, rate, first).unwrap();
            for stake in stakes {
                let stake = Decimal::from(stake);
                let (payout, profit) = amounts(stake, rate, first).unwrap();
                prop_assert_eq!(payout, unit.0 * stake);
                prop_assert_eq!(profit, unit.1 * stake);
            }
            // Opposite calls never both win; a tie is a tie for both.
            let other = outcome(
                if direction == Direction::Up { Direction::Down } else { Direction::Up },
                open,
                settle,
            );
            prop_assert!(!(first == Outcome::Win && other == Outcome::Win));
            prop_assert_eq!(first == Outcome::Tie, other == Outcome::Tie);
            prop_assert_eq!(first == Outcome::Tie, open == settle);
        }
    }
}
