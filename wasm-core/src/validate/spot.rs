//! The spot order form (spec section 5 and the pair's trading rules): side, type, prices on the tick
//! size, quantity on the step size, the minimum notional and the balance the order pays from — every
//! field's error at once, each with the field's name.
//!
//! # What each order needs
//!
//! | order | triggerPrice | price | quantity | quoteAmount | notional | pays from |
//! |---|---|---|---|---|---|---|
//! | `limit` | — | required | required | refused | price × quantity | buy: quote, sell: base |
//! | `stop_limit` | required | required | required | refused | price × quantity | buy: quote, sell: base |
//! | `market` buy | — | — | one of the two | one of the two | quantity × lastPrice, or quoteAmount | quote |
//! | `market` sell | — | — | required | refused | quantity × lastPrice | base |
//!
//! A field an order does not use (a price on a market order) is not checked; `quoteAmount` is the
//! exception, because it changes what the order means: outside a market buy it is refused.
//! While the side or the type is missing or unknown, what it decides is left unchecked: the fields
//! given are checked on their own (number form, tick, step), a price is required only once the type
//! asks for it, and the notional and the balance wait for both.

use rust_decimal::Decimal;
use serde::Deserialize;

use super::number::parse_positive_amount;
use super::{ValidationError, Violation, filled};
use crate::error::CoreError;
use crate::money::parse_decimal;

/// A spot order form as the trade panel holds it, with the pair's rules and the balances it is
/// checked against. Absent, `null` and blank user fields are missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SpotOrderForm {
    /// `buy` or `sell`.
    #[serde(default)]
    pub side: Option<String>,
    /// `limit`, `market` or `stop_limit`.
    #[serde(default)]
    pub order_type: Option<String>,
    /// The limit price, as typed (limit and stop-limit orders).
    #[serde(default)]
    pub price: Option<String>,
    /// The price that triggers a stop-limit order, as typed.
    #[serde(default)]
    pub trigger_price: Option<String>,
    /// The base quantity, as typed; a market buy may give `quote_amount` instead.
    #[serde(default)]
    pub quantity: Option<String>,
    /// Market buys only: the quote amount to spend, as typed (instead of a quantity).
    #[serde(default)]
    pub quote_amount: Option<String>,
    /// The pair's tick size, a decimal string above zero (not user input).
    pub tick_size: String,
    /// The pair's step size, a decimal string above zero (not user input).
    pub step_size: String,
    /// The pair's minimum notional (order value in the quote asset), a decimal string, not negative.
    pub min_notional: String,
    /// The last price, a decimal string above zero: a market order's notional is estimated with it;
    /// absent, that estimate and the balance check of a market buy by quantity are skipped.
    #[serde(default)]
    pub last_price: Option<String>,
    /// The available base balance, a decimal string, not negative; absent, a sell's balance is not
    /// checked (the backend's ledger is).
    #[serde(default)]
    pub available_base: Option<String>,
    /// The available quote balance, a decimal string, not negative; absent, a buy's balance is not
    /// checked.
    #[serde(default)]
    pub available_quote: Option<String>,
}

/// Buy or sell, as the form spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    Buy,
    Sell,
}

/// The order types of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Limit,
    Market,
    StopLimit,
}

/// The pair's rules and the balances, read from the caller's (not the user's) data.
struct Rules {
    tick: Decimal,
    step: Decimal,
    min_notional: Decimal,
    last_price: Option<Decimal>,
    available_base: Option<Decimal>,
    available_quote: Option<Decimal>,
}

impl Rules {
    fn read(form: &SpotOrderForm) -> Result<Self, CoreError> {
        let optional = |value: &Option<String>, name| {
            value
                .as_deref()
                .map(|text| non_negative(name, parse_decimal(text)?))
                .transpose()
        };
        let last_price = form
            .last_price
            .as_deref()
            .map(|text| positive("lastPrice", parse_decimal(text)?))
            .transpose()?;
        Ok(Self {
            tick: positive("tickSize", parse_decimal(&form.tick_size)?)?.normalize(),
            step: positive("stepSize", parse_decimal(&form.step_size)?)?.normalize(),
            min_notional: non_negative("minNotional", parse_decimal(&form.min_notional)?)?
                .normalize(),
            last_price,
            available_base: optional(&form.available_base, "availableBase")?,
            available_quote: optional(&form.available_quote, "availableQuote")?,
        })
    }
}

fn positive(name: &'static str, value: Decimal) -> Result<Decimal, CoreError> {
    if value > Decimal::ZERO {
        Ok(value)
    } else {
        Err(CoreError::NotPositive {
            name,
            value: value.to_string(),
        })
    }
}

fn non_negative(name: &'static str, value: Decimal) -> Result<Decimal, CoreError> {
    if value >= Decimal::ZERO {
        Ok(value)
    } else {
        Err(CoreError::Negative {
            name,
            value: value.to_string(),
        })
    }
}

/// Checks a spot order form; returns every error (empty when valid), at most one per field, in the
/// order `side`, `orderType`, `triggerPrice`, `price`, `quantity`, `quoteAmount` (which order needs
/// which field: table in [`crate::validate::spot`]):
///
/// - `side`, `orderType`: [`Violation::Required`], or [`Violation::InvalidChoice`] for anything but
///   `buy`/`sell` and `limit`/`market`/`stop_limit` (checked exactly as given);
/// - `triggerPrice`, `price`: [`Violation::Required`], the errors of a number input with at most the
///   tick size's decimals, [`Violation::NotAboveZero`], or [`Violation::OffTick`] when not a multiple
///   of the tick size;
/// - `quantity`: [`Violation::Required`], the errors of a number input with at most the step size's
///   decimals, [`Violation::NotAboveZero`], [`Violation::OffStep`] when not a multiple of the step
///   size, [`Violation::BelowMinNotional`] when the order's value is below the minimum notional, or
///   [`Violation::InsufficientBalance`] when it costs more than the balance it pays from (a buy:
///   its value in quote, a sell: the quantity in base);
/// - `quoteAmount`: [`Violation::QuoteAmountNotAllowed`] outside a market buy,
///   [`Violation::QuantityAndQuoteAmount`] when a market buy gives both, else the errors of a number
///   input, [`Violation::NotAboveZero`], [`Violation::BelowMinNotional`] or
///   [`Violation::InsufficientBalance`] (against the quote balance).
///
/// A market order's value is estimated with `lastPrice` (skipped without one). Values are decimals
/// (a product keeps up to the core's 28 decimals); a value too large for the core's numbers is above
/// any minimum and any balance. Fees are not part of the balance check: they are charged in the
/// asset received.
///
/// Fails only when the caller's own data is malformed: `tickSize`, `stepSize`, `minNotional`,
/// `lastPrice`, `availableBase` or `availableQuote` is not a decimal ([`CoreError::InvalidDecimal`]
/// and friends), `tickSize`, `stepSize` or `lastPrice` is not above zero
/// ([`CoreError::NotPositive`]), or another of them is negative ([`CoreError::Negative`]).
pub fn validate_spot_order(form: &SpotOrderForm) -> Result<Vec<ValidationError>, CoreError> {
    let rules = Rules::read(form)?;
    let mut errors = Vec::new();

    let side = report(
        &mut errors,
        "side",
        choice(&form.side, |text| match text {
            "buy" => Some(Side::Buy),
            "sell" => Some(Side::Sell),
            _ => None,
        }),
    );
    let kind = report(
        &mut errors,
        "orderType",
        choice(&form.order_type, |text| match text {
            "limit" => Some(Kind::Limit),
            "market" => Some(Kind::Market),
            "stop_limit" => Some(Kind::StopLimit),
            _ => None,
        }),
    );
    // What the order needs follows from what is known of it: a missing or unknown side or type
    // leaves only the fields given to be checked on their own.
    let market_buy = side == Some(Side::Buy) && kind == Some(Kind::Market);
    let quantity_given = filled(&form.quantity).is_some();
    let quote_given = filled(&form.quote_amount).is_some();
    let by_quote = market_buy && quote_given && !quantity_given;
    let may_use = |wanted: &[Kind]| kind.is_none_or(|kind| wanted.contains(&kind));
    let required = |wanted: &[Kind]| kind.is_some_and(|kind| wanted.contains(&kind));
    let off_tick = |tick| Violation::OffTick { tick };

    if may_use(&[Kind::StopLimit]) {
        let required = required(&[Kind::StopLimit]);
        report(
            &mut errors,
            "triggerPrice",
            on_grid(&form.trigger_price, required, rules.tick, off_tick),
        );
    }
    let price = if may_use(&[Kind::Limit, Kind::StopLimit]) {
        let required = required(&[Kind::Limit, Kind::StopLimit]);
        report(
            &mut errors,
            "price",
            on_grid(&form.price, required, rules.tick, off_tick),
        )
    } else {
        None
    };
    // A market order may go without a quantity only when it may be a buy by quote amount.
    let quantity_required = match kind {
        None => false,
        Some(Kind::Market) => !(quote_given && side != Some(Side::Sell)),
        Some(Kind::Limit | Kind::StopLimit) => true,
    };
    let quantity = report(
        &mut errors,
        "quantity",
        on_grid(&form.quantity, quantity_required, rules.step, |step| {
            Violation::OffStep { step }
        }),
    );
    let quote_allowed = side != Some(Side::Sell) && kind.is_none_or(|kind| kind == Kind::Market);
    let quote_amount = report(
        &mut errors,
        "quoteAmount",
        match filled(&form.quote_amount) {
            None => Ok(None),
            Some(_) if !quote_allowed => Err(Violation::QuoteAmountNotAllowed),
            Some(_) if market_buy && quantity_given => Err(Violation::QuantityAndQuoteAmount),
            Some(text) => parse_positive_amount(text, None).map(Some),
        },
    );

    // The order's value and what it pays, with the field that answers for them; each skipped while
    // a field it needs is missing or wrong (that field's own error says so).
    let (Some(side), Some(kind)) = (side, kind) else {
        return Ok(errors);
    };
    if market_buy && quantity_given && quote_given {
        return Ok(errors);
    }
    let (field, amount) = if by_quote {
        ("quoteAmount", quote_amount)
    } else {
        ("quantity", quantity)
    };
    let Some(amount) = amount else {
        return Ok(errors);
    };
    // Unknown without a (valid) price, or a market order without a last price.
    let notional = match kind {
        _ if by_quote => Some(Value::of(amount)),
        Kind::Market => rules.last_price.map(|last| Value::product(amount, last)),
        Kind::Limit | Kind::StopLimit => price.map(|price| Value::product(amount, price)),
    };
    if notional.is_some_and(|value| value.below(rules.min_notional)) {
        errors.push(ValidationError::new(
            field,
            Violation::BelowMinNotional {
                min: rules.min_notional,
            },
        ));
        return Ok(errors);
    }
    let (pays, available) = match side {
        Side::Buy => (notional, rules.available_quote),
        Side::Sell => (Some(Value::of(amount)), rules.available_base),
    };
    if let (Some(pays), Some(available)) = (pays, available)
        && pays.above(available)
    {
        errors.push(ValidationError::new(
            field,
            Violation::InsufficientBalance { available },
        ));
    }
    Ok(errors)
}

/// The choice of a `side` or `orderType` field: [`Violation::Required`] when missing,
/// [`Violation::InvalidChoice`] when `read` does not know it.
fn choice<T>(
    value: &Option<String>,
    read: impl Fn(&str) -> Option<T>,
) -> Result<Option<T>, Violation> {
    let text = filled(value).ok_or(Violation::Required)?;
    read(text)
        .map(Some)
        .ok_or_else(|| Violation::InvalidChoice {
            value: text.to_owned(),
        })
}

/// A positive number input with at most the decimals of `unit`, a multiple of `unit`; missing is
/// [`Violation::Required`] when `required`, else nothing to check.
fn on_grid(
    value: &Option<String>,
    required: bool,
    unit: Decimal,
    off: impl Fn(Decimal) -> Violation,
) -> Result<Option<Decimal>, Violation> {
    let Some(text) = filled(value) else {
        return if required {
            Err(Violation::Required)
        } else {
            Ok(None)
        };
    };
    let number = parse_positive_amount(text, Some(unit.scale()))?;
    // With at most `unit`'s decimals the remainder is exact; `None` cannot happen for a unit above
    // zero, and is read as off the grid rather than trusted.
    match number.checked_rem(unit) {
        Some(rest) if rest.is_zero() => Ok(Some(number)),
        _ => Err(off(unit)),
    }
}

/// An order value: exact, or beyond the range of the core's numbers (above any bound).
#[derive(Debug, Clone, Copy)]
enum Value {
    Exact(Decimal),
    Huge,
}

impl Value {
    fn of(value: Decimal) -> Self {
        Self::Exact(value)
    }

    fn product(a: Decimal, b: Decimal) -> Self {
        a.checked_mul(b).map_or(Self::Huge, Self::Exact)
    }

    fn below(self, bound: Decimal) -> bool {
        matches!(self, Self::Exact(value) if value < bound)
    }

    fn above(self, bound: Decimal) -> bool {
        match self {
            Self::Exact(value) => value > bound,
            Self::Huge => true,
        }
    }
}

/// The value of a field's check, or `None` after adding its violation to `errors`.
fn report<T>(
    errors: &mut Vec<ValidationError>,
    field: &'static str,
    result: Result<Option<T>, Violation>,
) -> Option<T> {
    result.unwrap_or_else(|violation| {
        errors.push(ValidationError::new(field, violation));
        None
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        parse_decimal(text).unwrap()
    }

    fn codes(form: &SpotOrderForm) -> Vec<(&'static str, &'static str)> {
        validate_spot_order(form)
            .unwrap()
            .iter()
            .map(|e| (e.field, e.violation.code()))
            .collect()
    }

    fn some(text: &str) -> Option<String> {
        Some(text.to_owned())
    }

    /// A valid limit buy of BTC/USDT: 0.01 × 60000 = 600 USDT, minimum 5, 1000 USDT available.
    fn limit_buy() -> SpotOrderForm {
        SpotOrderForm {
            side: some("buy"),
            order_type: some("limit"),
            price: some("60000.00"),
            trigger_price: None,
            quantity: some("0.01"),
            quote_amount: None,
            tick_size: "0.01".into(),
            step_size: "0.00001".into(),
            min_notional: "5".into(),
            last_price: some("60010.5"),
            available_base: some("0.5"),
            available_quote: some("1000"),
        }
    }

    fn market(side: &str, quantity: Option<&str>, quote: Option<&str>) -> SpotOrderForm {
        SpotOrderForm {
            side: some(side),
            order_type: some("market"),
            price: None,
            quantity: quantity.map(str::to_owned),
            quote_amount: quote.map(str::to_owned),
            ..limit_buy()
        }
    }

    #[test]
    fn valid_orders() {
        assert_eq!(validate_spot_order(&limit_buy()), Ok(vec![]));
        let sell = SpotOrderForm {
            side: some("sell"),
            quantity: some("0.5"),
            ..limit_buy()
        };
        assert_eq!(codes(&sell), []);
        let stop = SpotOrderForm {
            order_type: some("stop_limit"),
            trigger_price: some("59000.5"),
            ..limit_buy()
        };
        assert_eq!(codes(&stop), []);
        assert_eq!(codes(&market("buy", Some("0.01"), None)), []);
        assert_eq!(codes(&market("buy", None, Some("1000"))), []);
        assert_eq!(codes(&market("sell", Some("0.5"), None)), []);
        // A price on a market order, a trigger price on a limit order: not used, not checked.
        let unused = SpotOrderForm {
            price: some("abc"),
            ..market("buy", Some("0.01"), None)
        };
        assert_eq!(codes(&unused), []);
        let unused = SpotOrderForm {
            trigger_price: some("0"),
            ..limit_buy()
        };
        assert_eq!(codes(&unused), []);
    }

    #[test]
    fn side_and_type() {
        let empty = SpotOrderForm {
            tick_size: "0.01".into(),
            step_size: "1".into(),
            min_notional: "0".into(),
            ..SpotOrderForm::default()
        };
        assert_eq!(
            codes(&empty),
            [("side", "field_required"), ("orderType", "field_required")]
        );
        let form = SpotOrderForm {
            side: some("BUY"),
            order_type: some("stop"),
            ..limit_buy()
        };
        assert_eq!(
            validate_spot_order(&form).unwrap(),
            [
                ValidationError::new(
                    "side",
                    Violation::InvalidChoice {
                        value: "BUY".into()
                    }
                ),
                ValidationError::new(
                    "orderType",
                    Violation::InvalidChoice {
                        value: "stop".into()
                    }
                ),
            ]
        );
        // Without a type, the fields given are checked on their own, none is required.
        let form = SpotOrderForm {
            order_type: None,
            price: some("1.001"),
            quantity: None,
            trigger_price: some("7"),
            quote_amount: some("0"),
            ..limit_buy()
        };
        assert_eq!(
            codes(&form),
            [
                ("orderType", "field_required"),
                ("price", "too_many_decimals"),
                ("quoteAmount", "not_above_zero")
            ]
        );
        // The type alone decides that prices are required; the side alone refuses a quote amount.
        let form = SpotOrderForm {
            side: Some(" ".into()),
            order_type: some("stop_limit"),
            price: None,
            quantity: None,
            ..limit_buy()
        };
        assert_eq!(
            codes(&form),
            [
                ("side", "field_required"),
                ("triggerPrice", "field_required"),
                ("price", "field_required"),
                ("quantity", "field_required")
            ]
        );
        let form = SpotOrderForm {
            order_type: None,
            side: some("sell"),
            quote_amount: some("10"),
            ..limit_buy()
        };
        assert_eq!(
            codes(&form),
            [
                ("orderType", "field_required"),
                ("quoteAmount", "quote_amount_not_allowed")
            ]
        );
    }

    #[test]
    fn required_fields() {
        let form = SpotOrderForm {
            price: Some(String::new()),
            quantity: None,
            ..limit_buy()
        };
        assert_eq!(
            codes(&form),
            [("price", "field_required"), ("quantity", "field_required")]
        );
        let form = SpotOrderForm {
            order_type: some("stop_limit"),
            ..limit_buy()
        };
        assert_eq!(codes(&form), [("triggerPrice", "field_required")]);
        assert_eq!(
            codes(&market("buy", None, None)),
            [("quantity", "field_required")]
        );
        assert_eq!(
            codes(&market("sell", None, Some("10"))),
            [
                ("quantity", "field_required"),
                ("quoteAmount", "quote_amount_not_allowed")
            ]
        );
    }

    #[test]
    fn number_inputs() {
        let form = SpotOrderForm {
            order_type: some("stop_limit"),
            trigger_price: some("-1"),
            price: some("060000"),
            quantity: some("0.000001"),
            ..limit_buy()
        };
        assert_eq!(
            validate_spot_order(&form).unwrap(),
            [
                ValidationError::new(
                    "triggerPrice",
                    Violation::InvalidNumber { value: "-1".into() }
                ),
                ValidationError::new("price", Violation::LeadingZero),
                ValidationError::new("quantity", Violation::TooManyDecimals { max: 5 }),
            ]
        );
        let form = SpotOrderForm {
            price: some("0.00"),
            quantity: some(&"9".repeat(30)),
            ..limit_buy()
        };
        assert_eq!(
            codes(&form),
            [
                ("price", "not_above_zero"),
                ("quantity", "number_out_of_range")
            ]
        );
        assert_eq!(
            codes(&market("buy", None, Some("1e3"))),
            [("quoteAmount", "invalid_number")]
        );
    }

    #[test]
    fn tick_and_step() {
        let form = SpotOrderForm {
            order_type: some("stop_limit"),
            trigger_price: some("100.2"),
            price: some("100.5"),
            quantity: some("12"),
            tick_size: "0.50".into(),
            step_size: "5".into(),
            min_notional: "0".into(),
            ..limit_buy()
        };
        assert_eq!(
            validate_spot_order(&form).unwrap(),
            [
                ValidationError::new("triggerPrice", Violation::OffTick { tick: d("0.5") }),
                ValidationError::new("quantity", Violation::OffStep { step: d("5") }),
            ]
        );
        let on_grid = SpotOrderForm {
            trigger_price: some("100.0"),
            quantity: some("5"),
            ..form.clone()
        };
        assert_eq!(codes(&on_grid), []);
        let too_precise = SpotOrderForm {
            trigger_price: some("100.25"),
            quantity: some("10.0"),
            ..form
        };
        assert_eq!(
            codes(&too_precise),
            [
                ("triggerPrice", "too_many_decimals"),
                ("quantity", "too_many_decimals")
            ]
        );
    }

    #[test]
    fn min_notional() {
        // 0.0001 × 50000 = 5 exactly, 0.00008 × 60000 = 4.8 against a minimum of 5.
        let exact = SpotOrderForm {
            price: some("50000"),
            quantity: some("0.0001"),
            ..limit_buy()
        };
        assert_eq!(codes(&exact), []);
        let below = SpotOrderForm {
            quantity: some("0.00008"),
            ..limit_buy()
        };
        assert_eq!(
            validate_spot_order(&below).unwrap(),
            [ValidationError::new(
                "quantity",
                Violation::BelowMinNotional { min: d("5") }
            )]
        );
        // A market order's value is estimated at the last price, or not at all without one.
        assert_eq!(
            codes(&market("sell", Some("0.00008"), None)),
            [("quantity", "below_min_notional")]
        );
        let no_last = SpotOrderForm {
            last_price: None,
            ..market("sell", Some("0.00008"), None)
        };
        assert_eq!(codes(&no_last), []);
        assert_eq!(codes(&market("buy", None, Some("5"))), []);
        assert_eq!(
            codes(&market("buy", None, Some("4.99"))),
            [("quoteAmount", "below_min_notional")]
        );
        // Not checked while the price is wrong.
        let bad_price = SpotOrderForm {
            price: some("x"),
            ..below
        };
        assert_eq!(codes(&bad_price), [("price", "invalid_number")]);
    }

    #[test]
    fn balances() {
        let all_in = SpotOrderForm {
            price: some("50000"),
            quantity: some("0.02"),
            ..limit_buy()
        };
        assert_eq!(codes(&all_in), []);
        let over = SpotOrderForm {
            quantity: some("0.02001"),
            ..all_in.clone()
        };
        assert_eq!(
            validate_spot_order(&over).unwrap(),
            [ValidationError::new(
                "quantity",
                Violation::InsufficientBalance {
                    available: d("1000")
                }
            )]
        );
        let unknown = SpotOrderForm {
            available_quote: None,
            ..over
        };
        assert_eq!(codes(&unknown), []);
        let sell = SpotOrderForm {
            side: some("sell"),
            quantity: some("0.50001"),
            ..limit_buy()
        };
        assert_eq!(codes(&sell), [("quantity", "insufficient_balance")]);
        // A sell's balance does not need its price.
        let sell = SpotOrderForm {
            price: None,
            ..sell
        };
        assert_eq!(
            codes(&sell),
            [
                ("price", "field_required"),
                ("quantity", "insufficient_balance")
            ]
        );
        assert_eq!(
            codes(&market("sell", Some("0.50001"), None)),
            [("quantity", "insufficient_balance")]
        );
        assert_eq!(
            codes(&market("buy", None, Some("1000.01"))),
            [("quoteAmount", "insufficient_balance")]
        );
        // 0.02 × 60010.5 = 1200.21 > 1000; skipped without a last price.
        assert_eq!(
            codes(&market("buy", Some("0.02"), None)),
            [("quantity", "insufficient_balance")]
        );
        let no_last = SpotOrderForm {
            last_price: None,
            ..market("buy", Some("0.02"), None)
        };
        assert_eq!(codes(&no_last), []);
    }

    #[test]
    fn quote_amount_only_for_market_buys() {
        let limit = SpotOrderForm {
            quote_amount: some("100"),
            ..limit_buy()
        };
        assert_eq!(codes(&limit), [("quoteAmount", "quote_amount_not_allowed")]);
        assert_eq!(
            codes(&market("sell", Some("0.1"), Some("100"))),
            [("quoteAmount", "quote_amount_not_allowed")]
        );
        // Both on a market buy: the conflict, and no notional or balance check on either.
        assert_eq!(
            codes(&market("buy", Some("1"), Some("100"))),
            [("quoteAmount", "quantity_and_quote_amount")]
        );
        assert_eq!(
            codes(&market("buy", Some("0.1234567"), Some("100"))),
            [
                ("quantity", "too_many_decimals"),
                ("quoteAmount", "quantity_and_quote_amount")
            ]
        );
    }

    #[test]
    fn big_numbers() {
        let max = "79228162514264337593543950335";
        let huge = SpotOrderForm {
            price: some("2"),
            quantity: some(max),
            tick_size: "1".into(),
            step_size: "1".into(),
            ..limit_buy()
        };
        // max × 2 is beyond the core's range: above the minimum and above any balance.
        assert_eq!(codes(&huge), [("quantity", "insufficient_balance")]);
        let rich = SpotOrderForm {
            available_quote: None,
            ..huge
        };
        assert_eq!(codes(&rich), []);
        let fine = SpotOrderForm {
            price: some("7.9228162514264337593543950335"),
            quantity: some("0.0000000000000000000000000005"),
            tick_size: "0.0000000000000000000000000001".into(),
            step_size: "0.0000000000000000000000000005".into(),
            min_notional: "0".into(),
            ..limit_buy()
        };
        assert_eq!(codes(&fine), []);
        let off = SpotOrderForm {
            quantity: some("0.0000000000000000000000000004"),
            ..fine.clone()
        };
        assert_eq!(codes(&off), [("quantity", "off_step")]);
        let off = SpotOrderForm {
            price: some("79228162514264337593543950.334"),
            tick_size: "0.005".into(),
            quantity: some("1"),
            step_size: "1".into(),
            ..fine
        };
        assert_eq!(codes(&off), [("price", "off_tick")]);
    }

    #[test]
    fn caller_data_errors() {
        let with = |edit: fn(&mut SpotOrderForm)| {
            let mut form = limit_buy();
            edit(&mut form);
            validate_spot_order(&form).unwrap_err()
        };
        assert_eq!(
            with(|f| f.tick_size = "abc".into()),
            CoreError::InvalidDecimal {
                value: "abc".into()
            }
        );
        assert_eq!(
            with(|f| f.step_size = "0".into()),
            CoreError::NotPositive {
                name: "stepSize",
                value: "0".into()
            }
        );
        assert_eq!(
            with(|f| f.tick_size = "-0.01".into()).code(),
            "not_positive"
        );
        assert_eq!(
            with(|f| f.min_notional = "-1".into()),
            CoreError::Negative {
                name: "minNotional",
                value: "-1".into()
            }
        );
        assert_eq!(
            with(|f| f.min_notional = String::new()),
            CoreError::EmptyDecimal
        );
        assert_eq!(with(|f| f.last_price = some("0")).code(), "not_positive");
        assert_eq!(with(|f| f.available_base = some("-0.1")).code(), "negative");
        assert_eq!(
            with(|f| f.available_quote = some("1e9")).code(),
            "invalid_decimal"
        );
    }

    #[test]
    fn rules_are_shown_normalized() {
        let form = SpotOrderForm {
            price: some("1.5"),
            quantity: some("1"),
            tick_size: "1.000".into(),
            min_notional: "10.0".into(),
            ..limit_buy()
        };
        let json = serde_json::to_value(validate_spot_order(&form).unwrap()).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"field": "price", "code": "too_many_decimals", "key": "errors.tooManyDecimals", "params": {"max": "0"}}
            ])
        );
        let form = SpotOrderForm {
            price: some("2"),
            ..form
        };
        let json = serde_json::to_value(validate_spot_order(&form).unwrap()).unwrap();
        assert_eq!(
            json,
            serde_json::json!([
                {"field": "quantity", "code": "below_min_notional", "key": "errors.belowMinNotional", "params": {"min": "10"}}
            ])
        );
    }

    #[test]
    fn reads_the_form_from_json() {
        let form: SpotOrderForm = serde_json::from_value(serde_json::json!({
            "side": "buy", "orderType": "market", "quoteAmount": "10", "quantity": null,
            "tickSize": "0.01", "stepSize": "0.001", "minNotional": "5",
        }))
        .unwrap();
        assert_eq!(validate_spot_order(&form), Ok(vec![]));
        assert!(
            serde_json::from_value::<SpotOrderForm>(serde_json::json!({"side": "buy"})).is_err()
        );
    }
}
