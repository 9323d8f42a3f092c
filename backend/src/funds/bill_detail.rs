//! What a bill is about, as data the webapp words in the user's language. Every memo a user's bill
//! can carry is written here (by [`fill_memo`], [`deposit_memo`] and their siblings, the only
//! writers of those memos, loans' included) and read back here ([`parse`]) into a [`BillDetail`], so a statement
//! never shows the journal's English note (`btcusdt sell 0.005 @ 96899.46`, `deposit 10 USDT
//! (TRC20)`) to a reader of another language. The memo forms written before a writer moved here
//! still read; where a memo says nothing (spot holds of old) the entry's reference does.

use std::str::FromStr;

use rust_decimal::Decimal;

/// The structured details of one bill; which fields are set depends on the entry's kind.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BillDetail {
    /// The pair or contract (`btcusdt`).
    pub symbol: Option<String>,
    /// A fill's side: `buy` or `sell`.
    pub side: Option<String>,
    /// A fill's quantity (base coin).
    pub quantity: Option<Decimal>,
    /// A fill's price, the mark price of a liquidation, a seconds bet's opening price (stake) or
    /// settling price (settlement).
    pub price: Option<Decimal>,
    /// A funding payment's rate.
    pub rate: Option<Decimal>,
    /// A margin change: `add` or `remove`; a transfer with another user: `sent` or `received`; a
    /// seconds bet: `up` or `down`.
    pub direction: Option<String>,
    /// The order a hold was taken or released for; the seconds order settled.
    pub order_id: Option<i64>,
    /// Why an order hold was released (`cancelled`, `filled`, …).
    pub reason: Option<String>,
    /// A deposit's or withdrawal's network (`TRC20`).
    pub network: Option<String>,
    /// A withdrawal's destination address.
    pub address: Option<String>,
    /// Which step of a withdrawal: `held` (on submission) or `sent` (paid out); how a loan was
    /// repaid: `early`, `instalments` or `auto`.
    pub stage: Option<String>,
    /// What a fee was charged for (`withdrawal`).
    pub fee_of: Option<String>,
    /// A move between the user's own buckets: the bucket it left.
    pub from_bucket: Option<String>,
    /// A move between the user's own buckets: the bucket it entered.
    pub to_bucket: Option<String>,
    /// A transfer with another user: that user's id.
    pub counterparty: Option<i64>,
    /// A conversion: the coin given.
    pub from_coin: Option<String>,
    /// A conversion: the amount given.
    pub from_amount: Option<Decimal>,
    /// A conversion: the coin received.
    pub to_coin: Option<String>,
    /// A conversion: the amount received.
    pub to_amount: Option<Decimal>,
    /// A seconds bet's period in seconds.
    pub period_seconds: Option<u32>,
    /// A seconds bet's result: `win`, `loss` or `tie`.
    pub result: Option<String>,
    /// A seconds bet's opening price (settlement).
    pub open_price: Option<Decimal>,
    /// An earn entry's product.
    pub product_id: Option<i64>,
    /// An earn reward's accrual day (`2026-01-31`, UTC).
    pub date: Option<String>,
    /// What an early redemption deducted from the principal (the rewards paid).
    pub deduction: Option<Decimal>,
    /// A loan paid out or repaid: the loan's id.
    pub loan_id: Option<i64>,
    /// A loan repayment: the principal it repaid.
    pub principal: Option<Decimal>,
    /// A loan repayment: the interest it paid.
    pub interest: Option<Decimal>,
    /// A loan repayment: the overdue penalty it paid.
    pub penalty: Option<Decimal>,
    /// A loan repayment: the first instalment it paid.
    pub first_instalment: Option<u32>,
    /// A loan repayment: the last instalment it paid.
    pub last_instalment: Option<u32>,
    /// Referral rebates: the fills before this time (Unix milliseconds) that the batch paid; the
    /// reward centre's statement lists each rebate of the entry with its fill.
    pub rebated_until: Option<i64>,
}

/// The memo of a futures fill (`futures_fill`).
pub fn fill_memo(symbol: &str, side: &str, quantity: Decimal, price: Decimal) -> String {
    format!(
        "{symbol} {side} {} @ {}",
        quantity.normalize(),
        price.normalize()
    )
}

/// The memo of an hourly referral rebate batch (`referral_rebate`) that paid the fills before
/// `until` (Unix milliseconds).
pub fn referral_rebate_memo(until: i64) -> String {
    format!("referral rebates before {until}")
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

/// The memo of a spot trade (`spot_trade`): its pair.
pub fn spot_trade_memo(symbol: &str) -> String {
    symbol.to_owned()
}

/// The memo of the hold taken for spot order `order_id` on `symbol` (`spot_freeze`).
pub fn spot_hold_memo(symbol: &str, order_id: i64) -> String {
    format!("{symbol} order {order_id} hold")
}

/// The memo of what spot order `order_id` on `symbol` gave back (`spot_release`).
pub fn spot_release_memo(symbol: &str, order_id: i64) -> String {
    format!("{symbol} order {order_id} released")
}

/// The reference of the entries of spot order `order_id` (its holds and releases).
pub fn spot_order_reference(order_id: i64) -> String {
    format!("spot_order:{order_id}")
}

/// The memo of a credited deposit (`deposit`).
pub fn deposit_memo(amount: Decimal, coin: &str, network: &str) -> String {
    format!(
        "deposit {} {} ({network})",
        amount.normalize(),
        coin.to_ascii_uppercase()
    )
}

/// Where a withdrawal goes: the memos of its hold, payout, fee and refund say it.
#[derive(Debug, Clone, Copy)]
pub struct Destination<'a> {
    /// Asset.
    pub coin: &'a str,
    /// Network (`TRC20`).
    pub network: &'a str,
    /// Address.
    pub address: &'a str,
}

/// The memo of the hold of a submitted withdrawal of `amount` (`withdrawal`, funding → frozen).
pub fn withdrawal_hold_memo(amount: Decimal, to: Destination<'_>) -> String {
    format!(
        "withdrawal {amount} {} to {} ({}), held",
        to.coin.to_ascii_uppercase(),
        to.address,
        to.network
    )
}

/// The memo of a withdrawal paid out, `received` leaving (`withdrawal`, frozen → in transit).
pub fn withdrawal_sent_memo(received: Decimal, to: Destination<'_>) -> String {
    format!(
        "withdrawal {received} {} to {} ({}), sent",
        to.coin.to_ascii_uppercase(),
        to.address,
        to.network
    )
}

/// The memo of the fee of a withdrawal paid out (`fee`).
pub fn withdrawal_fee_memo(fee: Decimal, to: Destination<'_>) -> String {
    format!(
        "withdrawal fee {fee} {} ({})",
        to.coin.to_ascii_uppercase(),
        to.network
    )
}

/// The memo of a failed withdrawal's `amount` given back (`withdrawal_refund`).
pub fn withdrawal_refund_memo(amount: Decimal, to: Destination<'_>) -> String {
    format!(
        "withdrawal {amount} {} to {} ({}) failed, returned",
        to.coin.to_ascii_uppercase(),
        to.address,
        to.network
    )
}

/// The memo of a move between the user's own buckets (`bucket_transfer`).
pub fn bucket_transfer_memo(from: &str, to: &str) -> String {
    format!("{from} → {to}")
}

/// The memo of a transfer from user `from` to user `to` (`user_transfer`).
pub fn user_transfer_memo(from: i64, to: i64) -> String {
    format!("user {from} → user {to}")
}

/// The reference of a transfer from user `from` to user `to` (`user_transfer`).
pub fn user_transfer_reference(from: i64, to: i64) -> String {
    format!("user:{from}->user:{to}")
}

/// The memo of a conversion of `amount` of `from` into `receive` of `to` (`exchange`).
pub fn exchange_memo(amount: Decimal, from: &str, receive: Decimal, to: &str) -> String {
    format!(
        "{amount} {} → {receive} {}",
        from.to_ascii_uppercase(),
        to.to_ascii_uppercase()
    )
}

/// A seconds bet as its memos tell it.
#[derive(Debug, Clone, Copy)]
pub struct SecondsBet<'a> {
    /// Pair (`btcusdt`).
    pub symbol: &'a str,
    /// `up` or `down`.
    pub direction: &'a str,
    /// Period in seconds.
    pub period_seconds: i64,
    /// The opening tick's price.
    pub open_price: Decimal,
    /// The opening tick's `seq`.
    pub open_tick: i64,
}

/// The memo of a seconds bet's `stake` (`seconds_stake`).
pub fn seconds_stake_memo(bet: SecondsBet<'_>, stake: Decimal) -> String {
    format!(
        "seconds {} {} {}s, stake {stake} USDT at {} (tick {})",
        bet.symbol, bet.direction, bet.period_seconds, bet.open_price, bet.open_tick
    )
}

/// The memo of the payout of seconds order `order_id`, settled with `result` at `price` (tick
/// `tick`) (`seconds_settle`).
pub fn seconds_settle_memo(
    order_id: i64,
    bet: SecondsBet<'_>,
    result: &str,
    price: Decimal,
    tick: i64,
) -> String {
    format!(
        "seconds {order_id} {} {} {}s: {result} at {price} (tick {tick}) vs {} (tick {})",
        bet.symbol, bet.direction, bet.period_seconds, bet.open_price, bet.open_tick
    )
}

/// The memo of loan `loan_id` paid out (`loan_disburse`).
pub fn loan_disburse_memo(loan_id: i64, principal: Decimal, coin: &str) -> String {
    format!(
        "loan {loan_id} disbursed {} {}",
        principal.normalize(),
        coin.to_ascii_uppercase()
    )
}

/// A loan repayment as its memo tells it.
#[derive(Debug, Clone, Copy)]
pub struct LoanRepayment {
    /// The loan.
    pub loan_id: i64,
    /// How: `early` (in full before the end), `instalments` (the user's), `auto` (deducted at a
    /// due time by the sweep).
    pub stage: &'static str,
    /// Principal repaid.
    pub principal: Decimal,
    /// Interest paid.
    pub interest: Decimal,
    /// Penalty paid.
    pub penalty: Decimal,
    /// The first instalment paid.
    pub first: u32,
    /// The last instalment paid.
    pub last: u32,
}

/// The memo of a loan repayment (`loan_repay`).
pub fn loan_repay_memo(repayment: LoanRepayment) -> String {
    format!(
        "loan {} repaid {} principal {} interest {} penalty {} instalments {}-{}",
        repayment.loan_id,
        repayment.stage,
        repayment.principal.normalize(),
        repayment.interest.normalize(),
        repayment.penalty.normalize(),
        repayment.first,
        repayment.last
    )
}

/// The memo of money an operator put into the lending pool (`loan_pool_funding`).
pub fn loan_pool_funding_memo(amount: Decimal, coin: &str) -> String {
    format!(
        "loan pool funded {} {}",
        amount.normalize(),
        coin.to_ascii_uppercase()
    )
}

/// The memo of a subscription of `amount` `coin` to earn product `product_id` (`earn_subscribe`,
/// funding → earn).
pub fn earn_subscribe_memo(product_id: i64, amount: Decimal, coin: &str) -> String {
    format!(
        "earn {product_id} subscribe {} {}",
        amount.normalize(),
        coin.to_ascii_uppercase()
    )
}

/// The memo of the rewards of earn product `product_id` for the accrual day starting at
/// `accrual_date` (epoch ms) (`earn_income`, one entry per product, reward asset and day).
pub fn earn_income_memo(product_id: i64, accrual_date: i64) -> String {
    format!("earn {product_id} reward {}", utc_date(accrual_date))
}

/// The memo of the principals of earn product `product_id` coming back at maturity
/// (`earn_maturity`, earn → funding).
pub fn earn_maturity_memo(product_id: i64) -> String {
    format!("earn {product_id} maturity")
}

/// The memo of the early redemption of earn position `position_id` of product `product_id`, less
/// `deduction` (`earn_redeem`).
pub fn earn_redeem_memo(product_id: i64, position_id: i64, deduction: Decimal) -> String {
    format!(
        "earn {product_id} position {position_id} redeemed, deducted {}",
        deduction.normalize()
    )
}

/// `YYYY-MM-DD` of `ms` in UTC.
fn utc_date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.format("%Y-%m-%d").to_string())
        .unwrap_or_default()
}

/// One bill's entry as the journal keeps it, and who reads it.
#[derive(Debug, Clone, Copy)]
pub struct Entry<'a> {
    /// The entry's kind.
    pub kind: &'a str,
    /// The entry's memo.
    pub memo: &'a str,
    /// The entry's reference (`spot_order:17`, `user:7->user:42`, …).
    pub reference: &'a str,
    /// The user whose bill it is.
    pub reader: i64,
}

/// The details of the bill of `entry`, or `None` when the kind has no structured memo or the memo
/// is not of one of the kind's forms.
pub fn parse(entry: Entry<'_>) -> Option<BillDetail> {
    let words: Vec<&str> = entry.memo.split(' ').collect();
    match entry.kind {
        "futures_fill"
        | "futures_liquidation"
        | "futures_funding"
        | "futures_margin"
        | "futures_hold"
        | "futures_release"
        | "spot_trade" => futures(entry.kind, &words),
        "spot_freeze" | "spot_release" => spot_hold(entry, &words),
        "deposit" => match words.as_slice() {
            ["deposit", amount, _coin, network] => {
                number(amount)?;
                Some(BillDetail {
                    network: Some(in_parens(network)?),
                    ..BillDetail::default()
                })
            }
            _ => None,
        },
        "withdrawal" => withdrawal(&words),
        "withdrawal_refund" => refund(&words),
        "fee" => match words.as_slice() {
            ["withdrawal", "fee", amount, _coin, network @ ..] if network.len() <= 1 => {
                number(amount)?;
                let network = match network {
                    [network] => Some(in_parens(network)?),
                    _ => None,
                };
                Some(BillDetail {
                    fee_of: Some("withdrawal".to_owned()),
                    network,
                    ..BillDetail::default()
                })
            }
            _ => None,
        },
        "bucket_transfer" => match words.as_slice() {
            [from, "→", to] if bucket(from) && bucket(to) => Some(BillDetail {
                from_bucket: Some((*from).to_owned()),
                to_bucket: Some((*to).to_owned()),
                ..BillDetail::default()
            }),
            _ => None,
        },
        "user_transfer" => user_transfer(entry, &words),
        "exchange" => match words.as_slice() {
            [amount, from, "→", receive, to] => Some(BillDetail {
                from_coin: Some(from.to_ascii_lowercase()),
                from_amount: Some(number(amount)?),
                to_coin: Some(to.to_ascii_lowercase()),
                to_amount: Some(number(receive)?),
                ..BillDetail::default()
            }),
            _ => None,
        },
        "seconds_stake" => match words.as_slice() {
            [
                "seconds",
                symbol,
                direction,
                period,
                "stake",
                stake,
                "USDT",
                "at",
                price,
                ..,
            ] => {
                number(stake)?;
                Some(BillDetail {
                    price: Some(number(price)?),
                    ..seconds(symbol, direction, period.strip_suffix("s,")?)?
                })
            }
            _ => None,
        },
        "referral_rebate" => match words.as_slice() {
            ["referral", "rebates", "before", until] => Some(BillDetail {
                rebated_until: Some(until.parse().ok()?),
                ..BillDetail::default()
            }),
            _ => None,
        },
        "seconds_settle" => match words.as_slice() {
            [
                "seconds",
                id,
                symbol,
                direction,
                period,
                result @ ("win" | "loss" | "tie"),
                "at",
                price,
                "(tick",
                _,
                "vs",
                open,
                ..,
            ] => Some(BillDetail {
                order_id: Some(id.parse().ok()?),
                result: Some((*result).to_owned()),
                price: Some(number(price)?),
                open_price: Some(number(open)?),
                ..seconds(symbol, direction, period.strip_suffix("s:")?)?
            }),
            _ => None,
        },
        "loan_disburse" => match words.as_slice() {
            ["loan", id, "disbursed", amount, _coin] => Some(BillDetail {
                loan_id: Some(id.parse().ok()?),
                principal: Some(number(amount)?),
                ..BillDetail::default()
            }),
            _ => None,
        },
        "loan_repay" => match words.as_slice() {
            [
                "loan",
                id,
                "repaid",
                stage @ ("early" | "instalments" | "auto"),
                "principal",
                principal,
                "interest",
                interest,
                "penalty",
                penalty,
                "instalments",
                range,
            ] => {
                let (first, last) = range.split_once('-')?;
                Some(BillDetail {
                    loan_id: Some(id.parse().ok()?),
                    stage: Some((*stage).to_owned()),
                    principal: Some(number(principal)?),
                    interest: Some(number(interest)?),
                    penalty: Some(number(penalty)?),
                    first_instalment: Some(first.parse().ok()?),
                    last_instalment: Some(last.parse().ok()?),
                    ..BillDetail::default()
                })
            }
            _ => None,
        },
        "earn_subscribe" | "earn_income" | "earn_maturity" | "earn_redeem" => earn(&words),
        _ => None,
    }
}

/// The product, day, position and deduction an earn memo tells.
fn earn(words: &[&str]) -> Option<BillDetail> {
    let product = |id: &str| id.parse::<i64>().ok();
    match words {
        ["earn", id, "subscribe", amount, _coin] => {
            number(amount)?;
            Some(BillDetail {
                product_id: Some(product(id)?),
                ..BillDetail::default()
            })
        }
        ["earn", id, "reward", date] if date.len() == 10 => Some(BillDetail {
            product_id: Some(product(id)?),
            date: Some((*date).to_owned()),
            ..BillDetail::default()
        }),
        ["earn", id, "maturity"] => Some(BillDetail {
            product_id: Some(product(id)?),
            ..BillDetail::default()
        }),
        [
            "earn",
            id,
            "position",
            position,
            "redeemed,",
            "deducted",
            deduction,
        ] => Some(BillDetail {
            product_id: Some(product(id)?),
            order_id: Some(position.parse().ok()?),
            deduction: Some(number(deduction)?),
            ..BillDetail::default()
        }),
        _ => None,
    }
}

fn number(word: &str) -> Option<Decimal> {
    Decimal::from_str(word).ok()
}

/// `TRC20` of `(TRC20)` (or of `(TRC20),`).
fn in_parens(word: &str) -> Option<String> {
    let inner = word.strip_suffix(',').unwrap_or(word);
    let inner = inner.strip_prefix('(')?.strip_suffix(')')?;
    (!inner.is_empty()).then(|| inner.to_owned())
}

fn bucket(word: &str) -> bool {
    matches!(word, "funding" | "trading" | "earn" | "frozen")
}

fn futures(kind: &str, words: &[&str]) -> Option<BillDetail> {
    let symbol = (*words.first()?).to_owned();
    if symbol.is_empty() {
        return None;
    }
    let detail = BillDetail {
        symbol: Some(symbol),
        ..BillDetail::default()
    };
    match (kind, words) {
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

/// A spot hold or release: pair and order from the memo, or (memos written empty before) the
/// order from the reference.
fn spot_hold(entry: Entry<'_>, words: &[&str]) -> Option<BillDetail> {
    let word = if entry.kind == "spot_freeze" {
        "hold"
    } else {
        "released"
    };
    match words {
        [symbol, "order", id, last] if *last == word && !symbol.is_empty() => Some(BillDetail {
            symbol: Some((*symbol).to_owned()),
            order_id: Some(id.parse().ok()?),
            ..BillDetail::default()
        }),
        [""] => Some(BillDetail {
            order_id: Some(entry.reference.strip_prefix("spot_order:")?.parse().ok()?),
            ..BillDetail::default()
        }),
        _ => None,
    }
}

/// A withdrawal's hold (`…, held`) or payout (`…, sent`; of old without the network).
fn withdrawal(words: &[&str]) -> Option<BillDetail> {
    let (amount, address, network, stage) = match words {
        [
            "withdrawal",
            amount,
            _coin,
            "to",
            address,
            network,
            stage @ ("held" | "sent"),
        ] => (amount, address, Some(in_parens(network)?), *stage),
        ["withdrawal", amount, _coin, "to", address] => (amount, address, None, "sent"),
        _ => return None,
    };
    number(amount)?;
    Some(BillDetail {
        network,
        address: Some((*address).to_owned()),
        stage: Some(stage.to_owned()),
        ..BillDetail::default()
    })
}

/// A failed withdrawal given back (of old without its destination).
fn refund(words: &[&str]) -> Option<BillDetail> {
    match words {
        [
            "withdrawal",
            amount,
            _coin,
            "to",
            address,
            network,
            "failed,",
            "returned",
        ] => {
            number(amount)?;
            Some(BillDetail {
                network: Some(in_parens(network)?),
                address: Some((*address).to_owned()),
                ..BillDetail::default()
            })
        }
        ["withdrawal", amount, _coin, "failed,", "returned"] => {
            number(amount)?;
            Some(BillDetail::default())
        }
        _ => None,
    }
}

/// A transfer with another user, from the reader's side: `sent` to the recipient or `received`
/// from the sender (memos of old name only the recipient; the reference names both).
fn user_transfer(entry: Entry<'_>, words: &[&str]) -> Option<BillDetail> {
    let id = |word: &str| word.parse::<i64>().ok();
    let (from, to) = match words {
        ["user", from, "→", "user", to] => (id(from)?, id(to)?),
        ["to", "user", to] => {
            let (from, to_ref) = entry.reference.split_once("->")?;
            let from = id(from.strip_prefix("user:")?)?;
            let to = id(to)?;
            (to_ref == format!("user:{to}")).then_some((from, to))?
        }
        _ => return None,
    };
    let (direction, counterparty) = if entry.reader == to {
        ("received", from)
    } else {
        ("sent", to)
    };
    Some(BillDetail {
        direction: Some(direction.to_owned()),
        counterparty: Some(counterparty),
        ..BillDetail::default()
    })
}

/// The pair, direction and period every seconds memo tells.
fn seconds(symbol: &str, direction: &str, period: &str) -> Option<BillDetail> {
    matches!(direction, "up" | "down").then_some(())?;
    Some(BillDetail {
        symbol: Some(symbol.to_owned()),
        direction: Some(direction.to_owned()),
        period_seconds: Some(period.parse().ok()?),
        ..BillDetail::default()
    })
}

#[cfg(test)]
mod tests;
