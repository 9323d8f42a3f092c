//! What a bill is about, as data the webapp words in the user's language: the memos of the futures
//! entries and of spot trades are written here (by [`fill_memo`] and its siblings, the only writers
//! of those memos) and read back here ([`parse`]) into a [`BillDetail`], so a statement never shows
//! the journal's English note (`btcusdt sell 0.005 @ 96899.46`) to a reader of another language.

use std::str::FromStr;

use rust_decimal::Decimal;

/// The structured details of one bill; which fields are set depends on the entry's kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BillDetail {
    /// The pair or contract (`btcusdt`).
    pub symbol: String,
    /// A fill's side: `buy` or `sell`.
    pub side: Option<String>,
    /// A fill's quantity (base coin).
    pub quantity: Option<Decimal>,
    /// A fill's price, or the mark price of a liquidation.
    pub price: Option<Decimal>,
    /// A funding payment's rate.
    pub rate: Option<Decimal>,
    /// A margin change: `add` or `remove`.
    pub direction: Option<String>,
    /// The order an order hold was released for.
    pub order_id: Option<i64>,
    /// Why an order hold was released (`cancelled`, `filled`, …).
    pub reason: Option<String>,
}

/// The memo of a futures fill (`futures_fill`).
pub fn fill_memo(symbol: &str, side: &str, quantity: Decimal, price: Decimal) -> String {
    format!(
        "{symbol} {side} {} @ {}",
        quantity.normalize(),
        price.normalize()
    )
}

/// The memo of a liquidation at `mark` (`futures_liquidation`).
pub fn liquidation_memo(symbol: &str, mark: Decimal) -> String {
    format!("{symbol} liquidation @ {}", mark.normalize())
}

/// The memo of a funding payment at `rate` (`futures_funding`).
pub fn funding_memo(symbol: &str, rate: Decimal) -> String {
    format!("{symbol} funding rate {rate}")
}

/// The memo of a margin change, `add` or `remove` (`futures_margin`).
pub fn margin_memo(symbol: &str, direction: &str) -> String {
    format!("{symbol} margin {}", direction.to_ascii_lowercase())
}

/// The memo of a limit order's hold (`futures_hold`).
pub fn hold_memo(symbol: &str) -> String {
    format!("{symbol} limit order hold")
}

/// The memo of a hold released for `order_id` because of `reason` (`futures_release`).
pub fn release_memo(symbol: &str, order_id: i64, reason: &str) -> String {
    format!("{symbol} order {order_id} {reason}")
}

/// The details of a bill of `kind` with `memo`, or `None` when the kind has no structured memo or
/// the memo is not of the kind's form.
pub fn parse(kind: &str, memo: &str) -> Option<BillDetail> {
    let words: Vec<&str> = memo.split(' ').collect();
    let symbol = (*words.first()?).to_owned();
    if symbol.is_empty() {
        return None;
    }
    let number = |word: &str| Decimal::from_str(word).ok();
    let detail = BillDetail {
        symbol,
        ..BillDetail::default()
    };
    match (kind, words.as_slice()) {
        ("futures_fill", [_, side @ ("buy" | "sell"), quantity, "@", price]) => Some(BillDetail {
            side: Some((*side).to_owned()),
            quantity: Some(number(quantity)?),
            price: Some(number(price)?),
            ..detail
        }),
        ("futures_liquidation", [_, "liquidation", "@", mark]) => Some(BillDetail {
            price: Some(number(mark)?),
            ..detail
        }),
        ("futures_funding", [_, "funding", "rate", rate]) => Some(BillDetail {
            rate: Some(number(rate)?),
            ..detail
        }),
        ("futures_margin", [_, "margin", direction]) => {
            let direction = direction.to_ascii_lowercase();
            matches!(direction.as_str(), "add" | "remove").then(|| BillDetail {
                direction: Some(direction),
                ..detail
            })
        }
        ("futures_hold", [_, "limit", "order", "hold"]) => Some(detail),
        ("futures_release", [_, "order", id, reason]) => Some(BillDetail {
            order_id: Some(id.parse().ok()?),
            reason: Some((*reason).to_owned()),
            ..detail
        }),
        ("spot_trade", [_]) => Some(detail),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn every_written_memo_reads_back() {
        let fill = parse(
            "futures_fill",
            &fill_memo("btcusdt", "sell", dec!(0.0050), dec!(96899.46)),
        )
        .unwrap();
        assert_eq!(fill.symbol, "btcusdt");
        assert_eq!(fill.side.as_deref(), Some("sell"));
        assert_eq!(fill.quantity, Some(dec!(0.005)));
        assert_eq!(fill.price, Some(dec!(96899.46)));
        let liquidation = parse(
            "futures_liquidation",
            &liquidation_memo("ethusdt", dec!(3100.5)),
        );
        assert_eq!(liquidation.unwrap().price, Some(dec!(3100.5)));
        let funding = parse("futures_funding", &funding_memo("btcusdt", dec!(-0.0001)));
        assert_eq!(funding.unwrap().rate, Some(dec!(-0.0001)));
        let margin = parse("futures_margin", &margin_memo("btcusdt", "Add")).unwrap();
        assert_eq!(margin.direction.as_deref(), Some("add"));
        // The memos written before the margin memo was lower case read the same.
        let old = parse("futures_margin", "btcusdt margin Remove").unwrap();
        assert_eq!(old.direction.as_deref(), Some("remove"));
        assert_eq!(
            parse("futures_hold", &hold_memo("btcusdt")).unwrap().symbol,
            "btcusdt"
        );
        let release = parse("futures_release", &release_memo("btcusdt", 42, "cancelled")).unwrap();
        assert_eq!(release.order_id, Some(42));
        assert_eq!(release.reason.as_deref(), Some("cancelled"));
        assert_eq!(parse("spot_trade", "btcusdt").unwrap().symbol, "btcusdt");
    }

    #[test]
    fn other_kinds_and_malformed_memos_have_no_detail() {
        assert_eq!(parse("deposit", "deposit 10 USDT (TRC20)"), None);
        assert_eq!(parse("futures_fill", "btcusdt sell x @ 1"), None);
        assert_eq!(parse("futures_fill", ""), None);
        assert_eq!(parse("futures_margin", "btcusdt margin sideways"), None);
    }
}
