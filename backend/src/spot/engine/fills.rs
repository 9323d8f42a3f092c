//! Settlement of one fill of the book, in the batch: its journal entry (built by
//! `spot/settle.rs`, with the fees and the security fund's share), its trade row, both orders'
//! running figures, the users' `fill` messages and the tape. The house market maker's fills are as
//! real as anyone's, settled on its market-maker account.

use rust_decimal::Decimal;

use super::super::settle::{self, Fill, Party};
use super::super::views::{OrderSide, OrderStatus};
use super::SpotEngine;
use super::batch::Stop;
use super::house_maker::{HOUSE, HOUSE_ID_BIT};
use super::outbox::{Outbox, PendingEvent};
use crate::db::WriterTransaction;
use crate::entity::spot_trade;
use crate::market::hub::{Side as TapeSide, Trade};

/// The fields of an [`Event::Fill`](matching::Event::Fill).
pub(super) struct FillEvent {
    pub(super) taker: u64,
    pub(super) taker_owner: i64,
    pub(super) maker: u64,
    pub(super) maker_owner: i64,
    pub(super) taker_side: matching::Side,
    pub(super) price: u64,
    pub(super) quantity: u64,
}

impl SpotEngine {
    /// Settles one fill: the journal entry, the fill's row, both orders' figures, the tape.
    pub(super) async fn settle_fill(
        &mut self,
        txn: &WriterTransaction<'_>,
        fill: FillEvent,
        now: i64,
        outbox: &mut Outbox,
    ) -> Result<(), Stop> {
        let rules = self.rules.clone();
        let price = rules.price(fill.price);
        let quantity = rules.quantity(fill.quantity);
        let amount = (price * quantity).normalize();
        let party = |owner: i64| {
            if owner == HOUSE {
                Party::House
            } else {
                Party::User(owner)
            }
        };
        let discounts = &self.context.fee_discounts;
        let rate = |owner: i64, taker: bool| match (owner == HOUSE, taker) {
            (true, _) => Decimal::ZERO,
            (false, true) => discounts.rate(owner, rules.taker_fee),
            (false, false) => discounts.rate(owner, rules.maker_fee),
        };
        let buys = fill.taker_side == matching::Side::Buy;
        let (buyer, seller) = if buys {
            (
                (fill.taker, fill.taker_owner, true),
                (fill.maker, fill.maker_owner, false),
            )
        } else {
            (
                (fill.maker, fill.maker_owner, false),
                (fill.taker, fill.taker_owner, true),
            )
        };
        let fee = |value: Decimal, owner: i64, taker: bool| {
            wasm_core::margin::spot_fee(value, rate(owner, taker))
                .map_err(|e| Stop::Fatal(e.to_string()))
        };
        let buyer_fee = fee(quantity, buyer.1, buyer.2)?;
        let seller_fee = fee(amount, seller.1, seller.2)?;
        let entry = settle::fill_entry(
            &Fill {
                symbol: &rules.symbol,
                base: &rules.base,
                quote: &rules.quote,
                buyer: party(buyer.1),
                seller: party(seller.1),
                quantity,
                amount,
                buyer_fee,
                seller_fee,
            },
            format!(
                "spot_fill:{}/{}",
                order_ref(fill.taker),
                order_ref(fill.maker)
            ),
            self.context.security_percent,
        );
        let entry_index = outbox.ledger.post(txn, &entry).await?;
        let user_order = |id: u64| (id & HOUSE_ID_BIT == 0).then_some(id as i64);
        let user = |owner: i64| (owner != HOUSE).then_some(owner);
        let (taker_fee, maker_fee) = if buys {
            (buyer_fee, seller_fee)
        } else {
            (seller_fee, buyer_fee)
        };
        // Its id and its entry's are given when the batch is written.
        let trade = spot_trade::Model {
            id: 0,
            symbol: rules.symbol.clone(),
            taker_side: if buys { "buy" } else { "sell" }.to_owned(),
            taker_order_id: user_order(fill.taker),
            taker_user_id: user(fill.taker_owner),
            maker_order_id: user_order(fill.maker),
            maker_user_id: user(fill.maker_owner),
            price: price.normalize().to_string(),
            quantity: quantity.normalize().to_string(),
            amount: amount.to_string(),
            taker_fee: taker_fee.normalize().to_string(),
            maker_fee: maker_fee.normalize().to_string(),
            entry_id: 0,
            created_at: now,
        };
        let trade_number = outbox.trades.len();
        for (order_id, user_fee) in [(buyer.0, buyer_fee), (seller.0, seller_fee)] {
            let Some(order) = user_order(order_id).and_then(|id| self.open.get_mut(&id)) else {
                continue;
            };
            order.filled_quantity += quantity;
            order.filled_amount += amount;
            order.fee += user_fee;
            order.frozen -= match order.side() {
                OrderSide::Buy => amount,
                OrderSide::Sell => quantity,
            };
            order.row.status = OrderStatus::PartDeal.as_str().to_owned();
            outbox.touched.insert(order.row.id);
            outbox.user_events.push(PendingEvent::Fill {
                user_id: order.row.user_id,
                trade: trade_number,
            });
        }
        outbox.trades.push((trade, entry_index));
        outbox.tape.push(Trade {
            id: 0,
            price,
            quantity,
            side: if buys { TapeSide::Buy } else { TapeSide::Sell },
            ts: now,
        });
        Ok(())
    }
}

/// How an order appears in a fill's reference: its id, or `house`.
fn order_ref(id: u64) -> String {
    if id & HOUSE_ID_BIT == 0 {
        id.to_string()
    } else {
        "house".to_owned()
    }
}
