//! A one-way USDT-M position and what fills do to it (pure): opening, adding at a volume-weighted
//! entry, reducing with realised PnL and a pro-rata share of the isolated margin released, closing,
//! and flipping to the other side; its liquidation price and figures are wasm-core's
//! (`liquidation_price_in`, `position_metrics`), never a copy.

use rust_decimal::{Decimal, RoundingStrategy};
use wasm_core::margin::{
    self, MarginMode, MarginTier, PositionMetrics, PositionMetricsInput, Side, TierTable,
};

use wasm_core::CoreError;

/// Decimals of every amount the engine posts (margins, PnL, fees, funding).
pub const AMOUNT_DECIMALS: u32 = 8;
/// Decimals an average entry price keeps.
pub const PRICE_DECIMALS: u32 = 12;

/// `value` to [`AMOUNT_DECIMALS`], midpoint away from zero, normalised.
pub fn amount(value: Decimal) -> Decimal {
    value
        .round_dp_with_strategy(AMOUNT_DECIMALS, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// The rules of one futures symbol.
#[derive(Debug, Clone)]
pub struct SymbolRules {
    /// Pair id, lower case (`btcusdt`).
    pub symbol: String,
    /// Price tick (liquidation prices are rounded to it, limit prices must sit on it).
    pub tick: Decimal,
    /// Quantity step.
    pub step: Decimal,
    /// Maintenance margin tiers, validated.
    pub tiers: TierTable,
    /// Fee of an order that rests and fills later (fraction).
    pub maker_fee: Decimal,
    /// Fee of an order that fills at once (fraction).
    pub taker_fee: Decimal,
}

impl SymbolRules {
    /// The highest leverage a notional allows (its tier's maximum).
    pub fn max_leverage_at(&self, notional: Decimal) -> Decimal {
        margin::tier_for(self.tiers.tiers(), notional).map_or(Decimal::ONE, |t| t.max_leverage)
    }

    /// The highest leverage of the table (its first tier's).
    pub fn max_leverage(&self) -> Decimal {
        self.tiers
            .tiers()
            .first()
            .map_or(Decimal::ONE, |t| t.max_leverage)
    }

    /// The tiers as wasm-core's inputs take them.
    pub fn tier_rows(&self) -> Vec<MarginTier> {
        self.tiers.tiers().to_vec()
    }
}

/// What the other cross positions of the user contribute to a cross position's formulas.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CrossContext {
    /// The cross wallet balance (the user's trading bucket).
    pub wallet: Decimal,
    /// Maintenance margin of the user's other cross positions (TMM).
    pub other_maintenance: Decimal,
    /// Unrealised PnL of the user's other cross positions (UPNL).
    pub other_unrealised: Decimal,
}

/// An open position, as the engine keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// Row id (0 for one a fill is about to open).
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Long or short.
    pub side: Side,
    /// Size in the base asset, above zero.
    pub size: Decimal,
    /// Average entry price.
    pub entry_price: Decimal,
    /// Leverage.
    pub leverage: Decimal,
    /// Isolated or cross.
    pub mode: MarginMode,
    /// The isolated margin (0 for a cross position, whose balance is the trading wallet).
    pub margin: Decimal,
    /// Take-profit trigger (mark price).
    pub take_profit: Option<Decimal>,
    /// Stop-loss trigger (mark price).
    pub stop_loss: Option<Decimal>,
    /// PnL realised by the reductions so far.
    pub realised_pnl: Decimal,
    /// Size closed so far and its value at the closing prices (for the closing average price).
    pub closed_size: Decimal,
    /// `Σ closed quantity × closing price`.
    pub closed_value: Decimal,
    /// Trading fees paid for this position.
    pub fees: Decimal,
    /// Funding paid (positive) or received (negative).
    pub funding: Decimal,
    /// The liquidation price stored and shown (wasm-core's, rounded to the tick).
    pub liquidation_price: Option<Decimal>,
    /// Unix milliseconds.
    pub opened_at: i64,
}

impl Position {
    /// A new position of `size` at `price`.
    #[allow(clippy::too_many_arguments)]
    pub fn open(
        user_id: i64,
        side: Side,
        size: Decimal,
        price: Decimal,
        leverage: Decimal,
        mode: MarginMode,
        margin: Decimal,
        now: i64,
    ) -> Self {
        Position {
            id: 0,
            user_id,
            side,
            size,
            entry_price: price,
            leverage,
            mode,
            margin,
            take_profit: None,
            stop_loss: None,
            realised_pnl: Decimal::ZERO,
            closed_size: Decimal::ZERO,
            closed_value: Decimal::ZERO,
            fees: Decimal::ZERO,
            funding: Decimal::ZERO,
            liquidation_price: None,
            opened_at: now,
        }
    }

    /// `side × size × (price − entry)`, unrounded.
    pub fn pnl_at(&self, price: Decimal) -> Decimal {
        self.side.sign() * self.size * (price - self.entry_price)
    }

    /// `size × entry / leverage`.
    pub fn initial_margin(&self) -> Decimal {
        amount(self.size * self.entry_price / self.leverage)
    }

    /// The average price of what was closed so far.
    pub fn closing_average(&self) -> Option<Decimal> {
        (!self.closed_size.is_zero()).then(|| {
            (self.closed_value / self.closed_size)
                .round_dp(PRICE_DECIMALS)
                .normalize()
        })
    }

    /// wasm-core's view of the position: WB is the isolated margin, or the cross wallet with the
    /// other cross positions' TMM and UPNL.
    pub fn core(&self, cross: CrossContext) -> margin::Position {
        let isolated = self.mode == MarginMode::Isolated;
        margin::Position {
            side: self.side,
            size: self.size,
            entry_price: self.entry_price,
            leverage: self.leverage,
            margin_mode: self.mode,
            wallet_balance: if isolated {
                self.margin
            } else {
                cross.wallet.max(Decimal::ZERO)
            },
            other_maintenance_margin: (!isolated).then_some(cross.other_maintenance),
            other_unrealized_pnl: (!isolated).then_some(cross.other_unrealised),
        }
    }

    /// The liquidation price wasm-core gives for this position (`None`: none, shown as `--`).
    pub fn liquidation_price(
        &self,
        rules: &SymbolRules,
        cross: CrossContext,
    ) -> Result<Option<Decimal>, CoreError> {
        margin::liquidation_price_in(&rules.tiers, &self.core(cross), Some(rules.tick))
    }

    /// The figures of the position at `mark` (wasm-core's `position_metrics`).
    pub fn metrics(
        &self,
        rules: &SymbolRules,
        mark: Decimal,
        cross: CrossContext,
    ) -> Result<PositionMetrics, CoreError> {
        margin::position_metrics(&PositionMetricsInput {
            position: self.core(cross),
            mark_price: mark,
            tiers: rules.tier_rows(),
            tick_size: Some(rules.tick),
        })
    }

    /// The maintenance margin at `mark` (`notional × MMR − cum` of the notional's tier).
    pub fn maintenance_at(&self, rules: &SymbolRules, mark: Decimal) -> Decimal {
        let notional = self.size * mark;
        margin::tier_for(rules.tiers.tiers(), notional)
            .map_or(Decimal::ZERO, |t| notional * t.mmr - t.cum)
    }
}

/// What one fill does to the user's position in a symbol.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FillPlan {
    /// Size of the existing position closed by the fill.
    pub closed: Decimal,
    /// PnL realised by the closed part (rounded to [`AMOUNT_DECIMALS`]).
    pub realised_pnl: Decimal,
    /// Isolated margin released by the closed part.
    pub released_margin: Decimal,
    /// Size opened (or added) by the fill.
    pub opened: Decimal,
    /// Isolated margin the opened part needs (`opened × price / leverage`); 0 when cross.
    pub opened_margin: Decimal,
    /// The position afterwards; `None` when the fill leaves the user flat. A flip gives a new
    /// position (id 0).
    pub after: Option<Position>,
}

/// The effect of a fill of `quantity` at `price` in direction `side` (a buy is `Long`) on `current`,
/// with the leverage and mode of the order for what it opens.
#[allow(clippy::too_many_arguments)]
pub fn plan_fill(
    current: Option<&Position>,
    user_id: i64,
    side: Side,
    quantity: Decimal,
    price: Decimal,
    leverage: Decimal,
    mode: MarginMode,
    now: i64,
) -> FillPlan {
    let margin_for = |size: Decimal| {
        if mode == MarginMode::Isolated {
            amount(size * price / leverage)
        } else {
            Decimal::ZERO
        }
    };
    match current {
        None => {
            let opened_margin = margin_for(quantity);
            FillPlan {
                closed: Decimal::ZERO,
                realised_pnl: Decimal::ZERO,
                released_margin: Decimal::ZERO,
                opened: quantity,
                opened_margin,
                after: Some(Position::open(
                    user_id,
                    side,
                    quantity,
                    price,
                    leverage,
                    mode,
                    opened_margin,
                    now,
                )),
            }
        }
        Some(position) if position.side == side => {
            let opened_margin = margin_for(quantity);
            let size = position.size + quantity;
            let entry = ((position.size * position.entry_price + quantity * price) / size)
                .round_dp(PRICE_DECIMALS)
                .normalize();
            FillPlan {
                closed: Decimal::ZERO,
                realised_pnl: Decimal::ZERO,
                released_margin: Decimal::ZERO,
                opened: quantity,
                opened_margin,
                after: Some(Position {
                    size,
                    entry_price: entry,
                    margin: position.margin + opened_margin,
                    ..position.clone()
                }),
            }
        }
        Some(position) => {
            let closed = quantity.min(position.size);
            let realised_pnl =
                amount(position.side.sign() * closed * (price - position.entry_price));
            let whole = closed == position.size;
            let released_margin = if whole {
                position.margin
            } else {
                amount(position.margin * closed / position.size)
            };
            let rest = quantity - closed;
            let after = if !whole {
                Some(Position {
                    size: position.size - closed,
                    margin: position.margin - released_margin,
                    realised_pnl: position.realised_pnl + realised_pnl,
                    closed_size: position.closed_size + closed,
                    closed_value: position.closed_value + closed * price,
                    ..position.clone()
                })
            } else if rest > Decimal::ZERO {
                Some(Position::open(
                    user_id,
                    side,
                    rest,
                    price,
                    leverage,
                    mode,
                    margin_for(rest),
                    now,
                ))
            } else {
                None
            };
            FillPlan {
                closed,
                realised_pnl,
                released_margin,
                opened: rest,
                opened_margin: if rest > Decimal::ZERO {
                    margin_for(rest)
                } else {
                    Decimal::ZERO
                },
                after,
            }
        }
    }
}

/// `quantity` in direction `side` against a one-way position: the part that reduces it.
pub fn reducing_part(current: Option<&Position>, side: Side, quantity: Decimal) -> Decimal {
    match current {
        Some(position) if position.side != side => quantity.min(position.size),
        _ => Decimal::ZERO,
    }
}

/// The opposite side.
pub fn opposite(side: Side) -> Side {
    match side {
        Side::Long => Side::Short,
        Side::Short => Side::Long,
    }
}

/// A market order of `quantity` walking a ladder of `(price, quantity)` levels, best first: what it
/// fills and the value it fills for (`Σ quantity × price`, so the average is the VWAP, slippage
/// included). Levels beyond `limit` (a worst acceptable price) are not taken. The house takes the
/// other side of every futures order, so the ladder is read as the market's liquidity, not consumed.
pub fn walk_book(
    levels: impl IntoIterator<Item = (Decimal, Decimal)>,
    quantity: Decimal,
) -> (Decimal, Decimal) {
    let mut left = quantity;
    let mut value = Decimal::ZERO;
    for (price, available) in levels {
        if left <= Decimal::ZERO {
            break;
        }
        let take = left.min(available);
        value += take * price;
        left -= take;
    }
    (quantity - left, value)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    /// The BTCUSDT table of futures-math.md.
    pub fn btc_rules() -> SymbolRules {
        let tiers = crate::config::FuturesConfig::default_tiers(Decimal::ONE);
        SymbolRules {
            symbol: "btcusdt".into(),
            tick: dec!(0.01),
            step: dec!(0.0001),
            tiers: TierTable::new(tiers).unwrap(),
            maker_fee: dec!(0.0002),
            taker_fee: dec!(0.0005),
        }
    }

    #[test]
    fn a_market_order_walks_the_ladder() {
        let asks = [
            (dec!(100), dec!(1)),
            (dec!(101), dec!(2)),
            (dec!(102), dec!(5)),
        ];
        assert_eq!(walk_book(asks, dec!(2)), (dec!(2), dec!(201)));
        assert_eq!(walk_book(asks, dec!(10)), (dec!(8), dec!(812)));
        assert_eq!(walk_book([], dec!(1)), (dec!(0), dec!(0)));
    }

    #[test]
    fn the_worked_examples_come_from_wasm_core() {
        let rules = btc_rules();
        let mut long = Position::open(
            1,
            Side::Long,
            dec!(1),
            dec!(50000),
            dec!(10),
            MarginMode::Isolated,
            dec!(5000),
            0,
        );
        assert_eq!(
            long.liquidation_price(&rules, CrossContext::default())
                .unwrap(),
            Some(dec!(45180.72))
        );
        long.side = Side::Short;
        assert_eq!(
            long.liquidation_price(&rules, CrossContext::default())
                .unwrap(),
            Some(dec!(54776.12))
        );
    }

    #[test]
    fn adding_averages_the_entry_and_reducing_realises_pro_rata() {
        let first = plan_fill(
            None,
            1,
            Side::Long,
            dec!(1),
            dec!(50000),
            dec!(10),
            MarginMode::Isolated,
            0,
        );
        assert_eq!(first.opened_margin, dec!(5000));
        let position = first.after.unwrap();
        let added = plan_fill(
            Some(&position),
            1,
            Side::Long,
            dec!(1),
            dec!(52000),
            dec!(10),
            MarginMode::Isolated,
            0,
        );
        let position = added.after.unwrap();
        assert_eq!(position.entry_price, dec!(51000));
        assert_eq!(position.margin, dec!(10200));
        let half = plan_fill(
            Some(&position),
            1,
            Side::Short,
            dec!(0.5),
            dec!(53000),
            dec!(10),
            MarginMode::Isolated,
            0,
        );
        assert_eq!(half.closed, dec!(0.5));
        assert_eq!(half.realised_pnl, dec!(1000));
        assert_eq!(half.released_margin, dec!(2550));
        let rest = half.after.unwrap();
        assert_eq!(rest.size, dec!(1.5));
        assert_eq!(rest.margin, dec!(7650));
        assert_eq!(rest.closing_average(), Some(dec!(53000)));
        // A sell of 2.5 closes the 1.5 and opens a short of 1.
        let flip = plan_fill(
            Some(&rest),
            1,
            Side::Short,
            dec!(2.5),
            dec!(50000),
            dec!(5),
            MarginMode::Isolated,
            0,
        );
        assert_eq!(flip.closed, dec!(1.5));
        assert_eq!(flip.released_margin, dec!(7650));
        assert_eq!(flip.realised_pnl, dec!(-1500));
        let short = flip.after.unwrap();
        assert_eq!(
            (short.side, short.size, short.id),
            (Side::Short, dec!(1), 0)
        );
        assert_eq!(flip.opened_margin, dec!(10000));
    }
}
