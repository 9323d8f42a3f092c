//! Spot order preview: what a limit or market order costs or brings in, its fee, and the balances
//! after it fills.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::num::{self, add, div, fee_rate, mul, non_negative, positive, result, sub};
use crate::error::CoreError;

/// Buy or sell the base asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderSide {
    /// Pay quote, receive base.
    Buy,
    /// Pay base, receive quote.
    Sell,
}

/// How the order is priced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OrderType {
    /// At the given price or better.
    Limit,
    /// At the book's prices; the preview uses an expected price.
    Market,
}

/// The input of [`spot_order_preview`]. Give exactly one of `quantity` and `quote_amount`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpotOrderInput {
    /// Buy or sell.
    pub side: OrderSide,
    /// Limit or market.
    pub order_type: OrderType,
    /// The limit price, or for a market order the price it is expected to fill at (best ask for a
    /// buy, best bid for a sell, or the last price), above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub price: Decimal,
    /// The quantity of the base asset to buy or sell, not negative.
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub quantity: Option<Decimal>,
    /// Market buys only: the quote amount to spend, not negative.
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub quote_amount: Option<Decimal>,
    /// The fee rate as a fraction (`0.001` for 0.1%), from 0 up to (not including) 1.
    #[serde(deserialize_with = "num::decimal")]
    pub fee_rate: Decimal,
    /// The available balance of the base asset, not negative.
    #[serde(deserialize_with = "num::decimal")]
    pub base_balance: Decimal,
    /// The available balance of the quote asset, not negative.
    #[serde(deserialize_with = "num::decimal")]
    pub quote_balance: Decimal,
}

/// The asset a fee is charged in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum FeeAsset {
    /// The base asset (the fee of a buy).
    Base,
    /// The quote asset (the fee of a sell).
    Quote,
}

/// What a spot order does once filled, with at most 8 decimals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SpotOrderPreview {
    /// The base quantity bought or sold (for a market buy by quote amount, an estimate at `price`).
    pub quantity: Decimal,
    /// The quote amount: the cost of a buy, the gross proceeds of a sell.
    pub amount: Decimal,
    /// The fee, in [`fee_asset`](Self::fee_asset).
    pub fee: Decimal,
    /// The asset the fee is charged in: the one received.
    pub fee_asset: FeeAsset,
    /// What arrives net of the fee: base for a buy, quote for a sell.
    pub receive: Decimal,
    /// The base balance after the fill.
    pub base_balance_after: Decimal,
    /// The quote balance after the fill.
    pub quote_balance_after: Decimal,
    /// The order spends more than the balance it pays from; the figures above still show the fill.
    pub insufficient_balance: bool,
}

/// Previews a spot order as if it filled completely at `price`.
///
/// - Buy: pays `amount = quantity × price` quote (a market buy by quote amount pays exactly
///   `quote_amount` and expects `quote_amount / price` base), receives `quantity − fee` base with
///   `fee = quantity × fee rate`.
/// - Sell: pays `quantity` base, receives `amount − fee` quote with `amount = quantity × price` and
///   `fee = amount × fee rate`.
///
/// The fee is charged in the asset received, so it never needs a balance of its own. Amounts are
/// rounded to 8 decimals first and the balances derived from the rounded figures, so the preview
/// adds up. Paying more than the balance sets `insufficient_balance`; it is not an error.
///
/// A `quote_amount` is only for market buys, and exactly one of `quantity` and `quote_amount` must
/// be given: otherwise [`CoreError::InvalidArgument`] names the field at fault.
pub fn spot_order_preview(input: &SpotOrderInput) -> Result<SpotOrderPreview, CoreError> {
    let price = positive("price", input.price)?;
    let rate = fee_rate("feeRate", input.fee_rate)?;
    let base = non_negative("baseBalance", input.base_balance)?;
    let quote = non_negative("quoteBalance", input.quote_balance)?;
    let market_buy = input.side == OrderSide::Buy && input.order_type == OrderType::Market;
    let (quantity, amount) = match (input.quantity, input.quote_amount) {
        (Some(quantity), None) => {
            let quantity = non_negative("quantity", quantity)?;
            (quantity, result(mul(quantity, price)?))
        }
        (None, Some(spend)) if market_buy => {
            let spend = non_negative("quoteAmount", spend)?;
            (result(div(spend, price)?), spend)
        }
        (None, None) => return Err(CoreError::InvalidArgument { name: "quantity" }),
        (_, Some(_)) => {
            return Err(CoreError::InvalidArgument {
                name: "quoteAmount",
            });
        }
    };

    Ok(match input.side {
        OrderSide::Buy => {
            let fee = spot_fee(quantity, rate)?;
            let receive = sub(quantity, fee)?;
            SpotOrderPreview {
                quantity: result(quantity),
                amount: result(amount),
                fee,
                fee_asset: FeeAsset::Base,
                receive: result(receive),
                base_balance_after: result(add(base, receive)?),
                quote_balance_after: result(sub(quote, amount)?),
                insufficient_balance: amount > quote,
            }
        }
        OrderSide::Sell => {
            let fee = spot_fee(amount, rate)?;
            let receive = sub(amount, fee)?;
            SpotOrderPreview {
                quantity: result(quantity),
                amount: result(amount),
                fee,
                fee_asset: FeeAsset::Quote,
                receive: result(receive),
                base_balance_after: result(sub(base, quantity)?),
                quote_balance_after: result(add(quote, receive)?),
                insufficient_balance: quantity > base,
            }
        }
    })
}

/// The fee of a spot fill: `received × rate` (the asset received: base for a buy, quote for a
/// sell) rounded to 8 decimals, midpoint away from zero. The preview and the backend's settlement
/// of every fill use this one rule.
pub fn spot_fee(received: Decimal, rate: Decimal) -> Result<Decimal, CoreError> {
    Ok(result(mul(received, rate)?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn input(side: OrderSide, order_type: OrderType, quantity: Option<&str>) -> SpotOrderInput {
        SpotOrderInput {
            side,
            order_type,
            price: d("25000"),
            quantity: quantity.map(d),
            quote_amount: None,
            fee_rate: d("0.001"),
            base_balance: d("0.5"),
            quote_balance: d("10000"),
        }
    }

    #[test]
    fn limit_buy_pays_quote_and_the_fee_in_base() {
        let preview =
            spot_order_preview(&input(OrderSide::Buy, OrderType::Limit, Some("0.2"))).unwrap();
        assert_eq!(
            preview,
            SpotOrderPreview {
                quantity: d("0.2"),
                amount: d("5000"),
                fee: d("0.0002"),
                fee_asset: FeeAsset::Base,
                receive: d("0.1998"),
                base_balance_after: d("0.6998"),
                quote_balance_after: d("5000"),
                insufficient_balance: false,
            }
        );
    }

    #[test]
    fn limit_sell_pays_base_and_the_fee_in_quote() {
        let preview =
            spot_order_preview(&input(OrderSide::Sell, OrderType::Limit, Some("0.2"))).unwrap();
        assert_eq!(preview.amount, d("5000"));
        assert_eq!(preview.fee, d("5"));
        assert_eq!(preview.fee_asset, FeeAsset::Quote);
        assert_eq!(preview.receive, d("4995"));
        assert_eq!(preview.base_balance_after, d("0.3"));
        assert_eq!(preview.quote_balance_after, d("14995"));
        assert!(!preview.insufficient_balance);
    }

    #[test]
    fn market_buy_by_quote_amount_spends_exactly_it() {
        let mut by_quote = input(OrderSide::Buy, OrderType::Market, None);
        by_quote.quote_amount = Some(d("1000"));
        let preview = spot_order_preview(&by_quote).unwrap();
        assert_eq!(preview.quantity, d("0.04"));
        assert_eq!(preview.amount, d("1000"));
        assert_eq!(preview.fee, d("0.00004"));
        assert_eq!(preview.receive, d("0.03996"));
        assert_eq!(preview.quote_balance_after, d("9000"));
        // 1,000 / 30,000 = 0.0333…: the estimate keeps 8 decimals.
        by_quote.price = d("30000");
        let preview = spot_order_preview(&by_quote).unwrap();
        assert_eq!(preview.quantity, d("0.03333333"));
        assert_eq!(preview.fee, d("0.00003333"));
        assert_eq!(preview.receive, d("0.03330000"));
    }

    #[test]
    fn market_buy_by_quantity_and_market_sell() {
        let preview =
            spot_order_preview(&input(OrderSide::Buy, OrderType::Market, Some("0.1"))).unwrap();
        assert_eq!(preview.amount, d("2500"));
        let preview =
            spot_order_preview(&input(OrderSide::Sell, OrderType::Market, Some("0.5"))).unwrap();
        assert_eq!(preview.receive, d("12487.5"));
        assert_eq!(preview.base_balance_after, Decimal::ZERO);
    }

    #[test]
    fn over_the_balance_is_a_flag() {
        let preview =
            spot_order_preview(&input(OrderSide::Buy, OrderType::Limit, Some("0.5"))).unwrap();
        assert!(preview.insufficient_balance);
        assert_eq!(preview.quote_balance_after, d("-2500"));
        let preview = spot_order_preview(&input(
            OrderSide::Sell,
            OrderType::Market,
            Some("0.50000001"),
        ))
        .unwrap();
        assert!(preview.insufficient_balance);
    }

    #[test]
    fn quantity_or_quote_amount_exactly_once() {
        let none = input(OrderSide::Buy, OrderType::Market, None);
        assert_eq!(
            spot_order_preview(&none),
            Err(CoreError::InvalidArgument { name: "quantity" })
        );
        let mut both = input(OrderSide::Buy, OrderType::Market, Some("1"));
        both.quote_amount = Some(d("1"));
        assert_eq!(
            spot_order_preview(&both),
            Err(CoreError::InvalidArgument {
                name: "quoteAmount"
            })
        );
        for (side, order_type) in [
            (OrderSide::Buy, OrderType::Limit),
            (OrderSide::Sell, OrderType::Market),
        ] {
            let mut by_quote = input(side, order_type, None);
            by_quote.quote_amount = Some(d("1"));
            assert_eq!(
                spot_order_preview(&by_quote),
                Err(CoreError::InvalidArgument {
                    name: "quoteAmount"
                })
            );
        }
    }

    #[test]
    fn bad_numbers_are_errors() {
        let mut bad = input(OrderSide::Buy, OrderType::Limit, Some("1"));
        bad.price = Decimal::ZERO;
        assert_eq!(spot_order_preview(&bad).unwrap_err().code(), "not_positive");
        let mut bad = input(OrderSide::Buy, OrderType::Limit, Some("-1"));
        assert_eq!(spot_order_preview(&bad).unwrap_err().code(), "negative");
        bad.quantity = Some(d("1"));
        bad.fee_rate = d("1.5");
        assert_eq!(
            spot_order_preview(&bad).unwrap_err().code(),
            "fee_rate_out_of_range"
        );
    }
}
