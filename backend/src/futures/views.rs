//! The shapes of futures orders, positions, stop orders and funding that the HTTP calls answer and
//! the user channel pushes (spec section 3's field names: `openInterest`, `positionMargin`,
//! `guarAssetRatio`, `averOpenPrice`, `expectedStrongParity`, `closingAverPrice`, `commissPrice`,
//! `commissNum`, `haveDealNum`, `dealAverPrice`, `serviceCharge`, `entrustedValue`, …). Every figure
//! that depends on the mark price is wasm-core's `position_metrics`.

use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use wasm_core::margin::{MarginMode, Side};

use super::position::{CrossContext, Position, SymbolRules};
use crate::entity::{futures_order, futures_position, futures_stop};

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

fn opt_dec(text: &Option<String>) -> Option<Decimal> {
    text.as_deref().map(dec)
}

/// Buy (long) or sell (short).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename = "FuturesOrderSide", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum OrderSide {
    /// Opens or adds to a long, or reduces a short.
    Buy,
    /// Opens or adds to a short, or reduces a long.
    Sell,
}

impl OrderSide {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderSide::Buy => "buy",
            OrderSide::Sell => "sell",
        }
    }

    /// The position direction it trades toward.
    pub fn direction(self) -> Side {
        match self {
            OrderSide::Buy => Side::Long,
            OrderSide::Sell => Side::Short,
        }
    }

    /// The order side that trades toward `side`.
    pub fn toward(side: Side) -> Self {
        match side {
            Side::Long => OrderSide::Buy,
            Side::Short => OrderSide::Sell,
        }
    }
}

/// Market or limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum FuturesOrderType {
    /// Fills at once against the book's ladder (volume-weighted, with slippage).
    Market,
    /// Rests and fills at its price when the mark price reaches it.
    Limit,
}

impl FuturesOrderType {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            FuturesOrderType::Market => "market",
            FuturesOrderType::Limit => "limit",
        }
    }
}

/// Isolated or cross margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename = "MarginMode", rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum MarginModeView {
    /// The position has its own margin.
    Isolated,
    /// The position shares the trading wallet.
    Cross,
}

impl From<MarginModeView> for MarginMode {
    fn from(mode: MarginModeView) -> Self {
        match mode {
            MarginModeView::Isolated => MarginMode::Isolated,
            MarginModeView::Cross => MarginMode::Cross,
        }
    }
}

impl From<MarginMode> for MarginModeView {
    fn from(mode: MarginMode) -> Self {
        match mode {
            MarginMode::Isolated => MarginModeView::Isolated,
            MarginMode::Cross => MarginModeView::Cross,
        }
    }
}

/// Long or short.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum PositionSide {
    /// Long.
    Long,
    /// Short.
    Short,
}

impl From<Side> for PositionSide {
    fn from(side: Side) -> Self {
        match side {
            Side::Long => PositionSide::Long,
            Side::Short => PositionSide::Short,
        }
    }
}

impl From<PositionSide> for Side {
    fn from(side: PositionSide) -> Self {
        match side {
            PositionSide::Long => Side::Long,
            PositionSide::Short => Side::Short,
        }
    }
}

/// The stored name of a side.
pub fn side_str(side: Side) -> &'static str {
    match side {
        Side::Long => "long",
        Side::Short => "short",
    }
}

/// The stored name of a margin mode.
pub fn mode_str(mode: MarginMode) -> &'static str {
    match mode {
        MarginMode::Isolated => "isolated",
        MarginMode::Cross => "cross",
    }
}

/// A futures order.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct FuturesOrder {
    /// Order id.
    pub id: i64,
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// Buy or sell.
    pub side: OrderSide,
    /// Market or limit.
    pub order_type: FuturesOrderType,
    /// Who placed it: `user`, `stop`, `take_profit`, `stop_loss` or `liquidation`.
    pub source: String,
    /// Limit price; none for a market order.
    pub commiss_price: Option<Decimal>,
    /// Quantity ordered.
    pub commiss_num: Decimal,
    /// Quantity executed.
    pub have_deal_num: Decimal,
    /// Average execution price; none before any.
    pub deal_aver_price: Option<Decimal>,
    /// Fees paid (USDT).
    pub service_charge: Decimal,
    /// Order value: quantity × limit price, or the executed value of a market order.
    pub entrusted_value: Decimal,
    /// Realised PnL of what the order closed (USDT).
    pub profit: Decimal,
    /// Leverage.
    pub leverage: Decimal,
    /// Isolated or cross.
    pub margin_mode: MarginModeView,
    /// Only reduces the position.
    pub reduce_only: bool,
    /// Closes the whole position.
    pub close_position: bool,
    /// `waitDeal`, `partDeal`, `dealTotol` or `cancelled`.
    pub status: String,
    /// Why it was cancelled.
    pub cancel_reason: Option<String>,
    /// Placed, unix milliseconds.
    pub commiss_time: i64,
    /// Last change, unix milliseconds.
    pub update_time: i64,
}

impl From<&futures_order::Model> for FuturesOrder {
    fn from(row: &futures_order::Model) -> Self {
        let filled = dec(&row.filled_quantity);
        let value = dec(&row.filled_value);
        let price = opt_dec(&row.price);
        let quantity = dec(&row.quantity);
        FuturesOrder {
            id: row.id,
            symbol: row.symbol.clone(),
            side: if row.side == "buy" {
                OrderSide::Buy
            } else {
                OrderSide::Sell
            },
            order_type: if row.order_type == "limit" {
                FuturesOrderType::Limit
            } else {
                FuturesOrderType::Market
            },
            source: row.source.clone(),
            commiss_price: price,
            commiss_num: quantity,
            have_deal_num: filled,
            deal_aver_price: (!filled.is_zero()).then(|| (value / filled).round_dp(8).normalize()),
            service_charge: dec(&row.fee),
            entrusted_value: price.map_or(value, |p| (p * quantity).normalize()),
            profit: dec(&row.realised_pnl),
            leverage: dec(&row.leverage),
            margin_mode: if row.margin_mode == "cross" {
                MarginModeView::Cross
            } else {
                MarginModeView::Isolated
            },
            reduce_only: row.reduce_only,
            close_position: row.close_position,
            status: row.status.clone(),
            cancel_reason: row.cancel_reason.clone(),
            commiss_time: row.created_at,
            update_time: row.updated_at,
        }
    }
}

/// A futures position with its figures at the mark price.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct FuturesPosition {
    /// Position id.
    pub id: i64,
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// Long or short.
    pub side: PositionSide,
    /// Size (base asset); 0 once closed.
    pub open_interest: Decimal,
    /// Isolated margin, or the initial margin a cross position uses of the wallet.
    pub position_margin: Decimal,
    /// What backs the position: its isolated margin, or the cross wallet balance.
    pub hold_collateral_assets: Decimal,
    /// Margin ratio in percent (maintenance margin over margin balance; 100 liquidates); none when
    /// the margin balance is gone.
    pub guar_asset_ratio: Option<Decimal>,
    /// Average entry price.
    pub aver_open_price: Decimal,
    /// Estimated liquidation price (wasm-core's); none when there is none (`--`).
    pub expected_strong_parity: Option<Decimal>,
    /// Average price of what was closed so far.
    pub closing_aver_price: Option<Decimal>,
    /// Take-profit trigger (mark price).
    pub take_profit_price: Option<Decimal>,
    /// Stop-loss trigger (mark price).
    pub stop_loss_price: Option<Decimal>,
    /// The mark price the figures use.
    pub mark_price: Decimal,
    /// Size × mark.
    pub notional: Decimal,
    /// Maintenance margin at the mark.
    pub maintenance_margin: Decimal,
    /// Unrealised PnL at the mark.
    pub unrealised_pnl: Decimal,
    /// Return on the initial margin, percent.
    pub roe: Decimal,
    /// PnL realised so far.
    pub realised_pnl: Decimal,
    /// Leverage.
    pub leverage: Decimal,
    /// Isolated or cross.
    pub margin_mode: MarginModeView,
    /// Fees paid.
    pub fees: Decimal,
    /// Funding paid (positive) or received (negative).
    pub funding: Decimal,
    /// `open`, `closed` or `liquidated`.
    pub status: String,
    /// Opened, unix milliseconds.
    pub opened_at: i64,
}

/// The view of an open position at `mark`, with wasm-core's figures.
pub fn position_view(
    position: &Position,
    symbol: &str,
    rules: &SymbolRules,
    mark: Decimal,
    cross: CrossContext,
) -> FuturesPosition {
    let metrics = position.metrics(rules, mark, cross).ok();
    let isolated = position.mode == MarginMode::Isolated;
    FuturesPosition {
        id: position.id,
        symbol: symbol.to_owned(),
        side: position.side.into(),
        open_interest: position.size,
        position_margin: if isolated {
            position.margin
        } else {
            position.initial_margin()
        },
        hold_collateral_assets: if isolated {
            position.margin
        } else {
            cross.wallet
        },
        guar_asset_ratio: metrics.as_ref().and_then(|m| m.margin_ratio_percent),
        aver_open_price: position.entry_price,
        expected_strong_parity: metrics.as_ref().and_then(|m| m.liquidation_price),
        closing_aver_price: position.closing_average(),
        take_profit_price: position.take_profit,
        stop_loss_price: position.stop_loss,
        mark_price: mark,
        notional: metrics.as_ref().map_or(Decimal::ZERO, |m| m.notional),
        maintenance_margin: metrics
            .as_ref()
            .map_or(Decimal::ZERO, |m| m.maintenance_margin),
        unrealised_pnl: metrics.as_ref().map_or(Decimal::ZERO, |m| m.unrealized_pnl),
        roe: metrics.as_ref().map_or(Decimal::ZERO, |m| m.roe_percent),
        realised_pnl: position.realised_pnl,
        leverage: position.leverage,
        margin_mode: position.mode.into(),
        fees: position.fees,
        funding: position.funding,
        status: "open".into(),
        opened_at: position.opened_at,
    }
}

/// The view of a closed or liquidated position (no mark-dependent figures).
pub fn closed_view(row: &futures_position::Model) -> FuturesPosition {
    let closed_size = dec(&row.closed_size);
    FuturesPosition {
        id: row.id,
        symbol: row.symbol.clone(),
        side: if row.side == "long" {
            PositionSide::Long
        } else {
            PositionSide::Short
        },
        open_interest: Decimal::ZERO,
        position_margin: Decimal::ZERO,
        hold_collateral_assets: Decimal::ZERO,
        guar_asset_ratio: None,
        aver_open_price: dec(&row.entry_price),
        expected_strong_parity: None,
        closing_aver_price: (!closed_size.is_zero()).then(|| {
            (dec(&row.closed_value) / closed_size)
                .round_dp(8)
                .normalize()
        }),
        take_profit_price: None,
        stop_loss_price: None,
        mark_price: Decimal::ZERO,
        notional: Decimal::ZERO,
        maintenance_margin: Decimal::ZERO,
        unrealised_pnl: Decimal::ZERO,
        roe: Decimal::ZERO,
        realised_pnl: dec(&row.realised_pnl),
        leverage: dec(&row.leverage),
        margin_mode: if row.margin_mode == "cross" {
            MarginModeView::Cross
        } else {
            MarginModeView::Isolated
        },
        fees: dec(&row.fees),
        funding: dec(&row.funding),
        status: row.status.clone(),
        opened_at: row.opened_at,
    }
}

/// A stop order on the mark price (`contract/loss/*`).
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct FuturesStopOrder {
    /// Stop order id.
    pub id: i64,
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// The side of the position it closes.
    pub position_side: PositionSide,
    /// Trigger (mark price).
    pub trigger_price: Decimal,
    /// `above`: fires when the mark reaches the trigger from below; `below`: from above.
    pub direction: String,
    /// Quantity to close; none closes the whole position.
    pub quantity: Option<Decimal>,
    /// `waiting`, `triggered` or `cancelled`.
    pub status: String,
    /// The market order it placed when triggered.
    pub order_id: Option<i64>,
    /// Placed, unix milliseconds.
    pub create_time: i64,
}

impl From<&futures_stop::Model> for FuturesStopOrder {
    fn from(row: &futures_stop::Model) -> Self {
        FuturesStopOrder {
            id: row.id,
            symbol: row.symbol.clone(),
            position_side: if row.position_side == "long" {
                PositionSide::Long
            } else {
                PositionSide::Short
            },
            trigger_price: dec(&row.trigger_price),
            direction: row.direction.clone(),
            quantity: opt_dec(&row.quantity),
            status: row.status.clone(),
            order_id: row.order_id,
            create_time: row.created_at,
        }
    }
}

/// The leverage and margin mode of a user's new orders in a symbol.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct FuturesSetting {
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// Leverage.
    pub leverage: Decimal,
    /// Isolated or cross.
    pub margin_mode: MarginModeView,
    /// The highest leverage of the symbol's first tier.
    pub max_leverage: Decimal,
}

/// Funding of a symbol now.
#[derive(Debug, Clone, Object, Serialize, Deserialize, PartialEq, Eq)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct FundingInfo {
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// The rate the next funding will apply if the premium stays as it is (fraction).
    pub funding_rate: Decimal,
    /// The rate of the last funding (fraction); none before the first.
    pub last_funding_rate: Option<Decimal>,
    /// When the next funding happens, unix milliseconds.
    pub next_funding_time: i64,
    /// Seconds until then (the countdown).
    pub countdown: i64,
    /// Seconds between two fundings.
    pub interval_secs: i64,
    /// Mark price.
    pub mark_price: Decimal,
    /// Index price.
    pub index_price: Decimal,
}

/// One maintenance margin tier of a contract, as wasm-core's margin functions take it.
#[derive(Debug, Clone, Object, Serialize, Deserialize, PartialEq, Eq)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ContractTier {
    /// Where the tier starts (notional, USDT).
    pub notional_floor: Decimal,
    /// Where it ends (a notional equal to the cap still belongs to it).
    pub notional_cap: Decimal,
    /// The highest leverage while the notional lies in the tier.
    pub max_leverage: Decimal,
    /// Maintenance margin rate (fraction).
    pub mmr: Decimal,
    /// Maintenance amount (`floor × (MMR − previous MMR) + previous cum`).
    pub cum: Decimal,
}

/// The rules of a USDT-M perpetual: everything the order form's preview and the rules page need to
/// compute what the server computes.
#[derive(Debug, Clone, Object, Serialize, Deserialize, PartialEq, Eq)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct ContractRules {
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// Price tick.
    pub tick_size: Decimal,
    /// Quantity step.
    pub step_size: Decimal,
    /// Fee of a limit order that rested and filled (fraction).
    pub maker_fee_rate: Decimal,
    /// Fee of an order that fills at once (fraction).
    pub taker_fee_rate: Decimal,
    /// The highest leverage of the table (its first tier's).
    pub max_leverage: Decimal,
    /// Seconds between two fundings.
    pub funding_interval_secs: i64,
    /// The most a funding rate may be either way (fraction).
    pub funding_cap: Decimal,
    /// The interest part of every funding rate (fraction per interval).
    pub funding_interest: Decimal,
    /// Maintenance margin tiers, by notional.
    pub tiers: Vec<ContractTier>,
}

/// A closed or liquidated position as the position history shows it.
#[derive(Debug, Clone, Object, PartialEq, Eq)]
#[oai(rename_all = "camelCase")]
pub struct ClosedPosition {
    /// Position id.
    pub id: i64,
    /// Pair (`btcusdt`).
    pub symbol: String,
    /// Long or short.
    pub side: PositionSide,
    /// Isolated or cross.
    pub margin_mode: MarginModeView,
    /// Leverage.
    pub leverage: Decimal,
    /// Average entry price.
    pub entry_price: Decimal,
    /// Average exit price (`Σ closed quantity × price / closed size`, 8 decimals).
    pub exit_price: Decimal,
    /// Size closed over the position's life (base asset).
    pub size: Decimal,
    /// PnL realised (before fees and funding).
    pub realised_pnl: Decimal,
    /// Trading fees paid.
    pub fees: Decimal,
    /// Funding paid (positive) or received (negative).
    pub funding: Decimal,
    /// `closed` or `liquidated`.
    pub status: String,
    /// Opened, unix milliseconds.
    pub opened_at: i64,
    /// Closed, unix milliseconds.
    pub closed_at: i64,
}

impl From<&futures_position::Model> for ClosedPosition {
    fn from(row: &futures_position::Model) -> Self {
        let size = dec(&row.closed_size);
        let exit_price = if size.is_zero() {
            Decimal::ZERO
        } else {
            (dec(&row.closed_value) / size).round_dp(8).normalize()
        };
        Self {
            id: row.id,
            symbol: row.symbol.clone(),
            side: if row.side == "long" {
                PositionSide::Long
            } else {
                PositionSide::Short
            },
            margin_mode: if row.margin_mode == "cross" {
                MarginModeView::Cross
            } else {
                MarginModeView::Isolated
            },
            leverage: dec(&row.leverage),
            entry_price: dec(&row.entry_price),
            exit_price,
            size,
            realised_pnl: dec(&row.realised_pnl),
            fees: dec(&row.fees),
            funding: dec(&row.funding),
            status: row.status.clone(),
            opened_at: row.opened_at,
            closed_at: row.closed_at.unwrap_or(row.updated_at),
        }
    }
}
