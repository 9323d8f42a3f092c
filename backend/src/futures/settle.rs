//! The journal entries of futures (pure): what a fill, a liquidation, a margin change, an order
//! hold and a funding payment move between the user's trading wallet (`Bucket::Trading`, the cross
//! balance), the user's futures margin (`Bucket::FuturesMargin`: isolated margins and order holds),
//! the house counterparty of every position (`House::FuturesCounterparty`, which may go negative),
//! the fees account and the security fund.
//!
//! Every function returns the legs of one balanced entry: each leg moves an amount from one account
//! to another, so the postings of an entry always sum to zero. Losses are capped at what the payer
//! holds: what a loser cannot pay is taken from the security fund as far as it reaches, and the rest
//! is the counterparty's loss (it is simply not paid).

use rust_decimal::Decimal;

use crate::funds::fees::security_fund_share;
use crate::funds::ledger::{AccountRef, Bucket, House, NewEntry, Posting};

/// The settlement asset of every USDT-M contract.
pub const USDT: &str = "usdt";

/// The user's trading wallet.
pub fn trading(user_id: i64) -> AccountRef {
    AccountRef::User {
        user_id,
        bucket: Bucket::Trading,
    }
}

/// The user's futures margin bucket (isolated margins and order holds).
pub fn margin(user_id: i64) -> AccountRef {
    AccountRef::User {
        user_id,
        bucket: Bucket::FuturesMargin,
    }
}

/// The counterparty of every futures position.
pub const COUNTERPARTY: AccountRef = AccountRef::House(House::FuturesCounterparty);
/// Trading fees.
pub const FEES: AccountRef = AccountRef::House(House::Fees);
/// The security (insurance) fund.
pub const SECURITY_FUND: AccountRef = AccountRef::House(House::SecurityFund);

/// The legs of one entry under construction.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Legs(Vec<Posting>);

impl Legs {
    /// No legs yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Moves `amount` from `from` to `to` (a negative amount moves the other way; zero is left
    /// out).
    pub fn transfer(&mut self, from: AccountRef, to: AccountRef, amount: Decimal) -> &mut Self {
        let amount = amount.normalize();
        if !amount.is_zero() && from != to {
            self.0.extend(Posting::transfer(from, to, USDT, amount));
        }
        self
    }

    /// Moves the sum of `parts` from `from` as one posting on `from`, and each part to its account
    /// (zero parts are left out): what the payer reads is one row however the amount is shared.
    pub fn pay(&mut self, from: AccountRef, parts: &[(AccountRef, Decimal)]) -> &mut Self {
        let parts: Vec<(AccountRef, Decimal)> = parts
            .iter()
            .map(|(to, amount)| (*to, amount.normalize()))
            .filter(|(to, amount)| !amount.is_zero() && *to != from)
            .collect();
        let total: Decimal = parts.iter().map(|(_, amount)| *amount).sum();
        if total.is_zero() {
            return self;
        }
        self.0.push(Posting {
            account: from,
            asset: USDT.into(),
            amount: -total,
        });
        for (to, amount) in parts {
            self.0.push(Posting {
                account: to,
                asset: USDT.into(),
                amount,
            });
        }
        self
    }

    /// Whether nothing moves.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The net change of `account`.
    pub fn net(&self, account: AccountRef) -> Decimal {
        self.0
            .iter()
            .filter(|p| p.account == account)
            .map(|p| p.amount)
            .sum()
    }

    /// The postings.
    pub fn postings(&self) -> &[Posting] {
        &self.0
    }

    /// The entry of these legs.
    pub fn entry(self, kind: &str, reference: String, user_id: i64, memo: String) -> NewEntry {
        NewEntry {
            kind: kind.into(),
            reference,
            user_id: Some(user_id),
            actor_id: Some(user_id),
            memo,
            postings: self.0,
        }
    }
}

/// A trading fee: the security fund's share (`security_percent` of it) to the fund, the rest to
/// the fees account, paid from `payer` as one posting (the split is the house's, not the user's).
pub fn fee(legs: &mut Legs, payer: AccountRef, fee: Decimal, security_percent: Decimal) {
    let share = security_fund_share(fee, security_percent);
    legs.pay(payer, &[(FEES, fee - share), (SECURITY_FUND, share)]);
}

/// What a fill settles, all amounts rounded already.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FillAmounts {
    /// The user.
    pub user_id: i64,
    /// Whether the position is isolated (its margin lives in the margin bucket).
    pub isolated: bool,
    /// Held for the order and released now (margin bucket → trading).
    pub released_hold: Decimal,
    /// Isolated margin released by the closed part (margin bucket → trading).
    pub released_margin: Decimal,
    /// PnL realised by the closed part (counterparty ↔ trading).
    pub realised_pnl: Decimal,
    /// Isolated margin of the opened part (trading → margin bucket).
    pub opened_margin: Decimal,
    /// The trading fee of the fill.
    pub fee: Decimal,
    /// The trading wallet's balance before the fill.
    pub trading_before: Decimal,
    /// The security fund's balance before the fill.
    pub security_fund_before: Decimal,
}

/// What [`fill_legs`] charged in the end.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Charged {
    /// The fee charged (the fee asked, or what was left to pay it).
    pub fee: Decimal,
    /// A loss the user could not pay that the security fund covered.
    pub covered_by_fund: Decimal,
    /// A loss nobody paid (beyond the security fund): the counterparty's.
    pub uncovered: Decimal,
}

/// The legs of a fill. The closed part's margin and PnL settle first; a loss the trading wallet
/// (with the released margin) cannot pay is covered by the security fund as far as it reaches; the
/// fee is charged from what is left (never more).
pub fn fill_legs(a: &FillAmounts, security_percent: Decimal) -> (Legs, Charged) {
    let mut legs = Legs::new();
    let (t, m) = (trading(a.user_id), margin(a.user_id));
    legs.transfer(m, t, a.released_hold + a.released_margin);
    let mut cash = a.trading_before + a.released_hold + a.released_margin;
    let mut charged = Charged::default();
    if a.realised_pnl >= Decimal::ZERO {
        legs.transfer(COUNTERPARTY, t, a.realised_pnl);
        cash += a.realised_pnl;
    } else {
        let loss = -a.realised_pnl;
        let paid = loss.min(cash.max(Decimal::ZERO));
        legs.transfer(t, COUNTERPARTY, paid);
        cash -= paid;
        let short = loss - paid;
        charged.covered_by_fund = short.min(a.security_fund_before.max(Decimal::ZERO));
        charged.uncovered = short - charged.covered_by_fund;
        legs.transfer(SECURITY_FUND, COUNTERPARTY, charged.covered_by_fund);
    }
    legs.transfer(t, m, a.opened_margin);
    cash -= a.opened_margin;
    charged.fee = a.fee.min(cash.max(Decimal::ZERO));
    fee(&mut legs, t, charged.fee, security_percent);
    (legs, charged)
}

/// What a liquidation settled.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Liquidated {
    /// What went to the security fund as the liquidation fee.
    pub liquidation_fee: Decimal,
    /// A loss beyond the margin that the security fund covered.
    pub covered_by_fund: Decimal,
    /// A loss beyond the margin and the fund: the counterparty's.
    pub uncovered: Decimal,
}

/// The legs of a liquidation at the mark. `balance` is what backs the position (its isolated
/// margin, or the cross wallet), `pnl` its loss at the mark (negative), `fee_cap` the most the
/// liquidation fee takes (isolated: everything left of the margin; cross: the position's
/// maintenance margin).
pub fn liquidation_legs(
    user_id: i64,
    isolated: bool,
    balance: Decimal,
    pnl: Decimal,
    fee_cap: Decimal,
    security_fund_before: Decimal,
) -> (Legs, Liquidated) {
    let mut legs = Legs::new();
    let backing = if isolated {
        margin(user_id)
    } else {
        trading(user_id)
    };
    let mut out = Liquidated::default();
    let balance = balance.max(Decimal::ZERO);
    if pnl >= Decimal::ZERO {
        legs.transfer(COUNTERPARTY, backing, pnl);
        out.liquidation_fee = fee_cap.min(balance + pnl).max(Decimal::ZERO);
    } else {
        let loss = -pnl;
        let paid = loss.min(balance);
        legs.transfer(backing, COUNTERPARTY, paid);
        let short = loss - paid;
        out.covered_by_fund = short.min(security_fund_before.max(Decimal::ZERO));
        out.uncovered = short - out.covered_by_fund;
        legs.transfer(SECURITY_FUND, COUNTERPARTY, out.covered_by_fund);
        out.liquidation_fee = fee_cap.min(balance - paid).max(Decimal::ZERO);
    }
    legs.transfer(backing, SECURITY_FUND, out.liquidation_fee);
    // An isolated position's margin bucket share is spent to the last cent: what the fee rule
    // leaves goes back to the wallet.
    if isolated {
        let left = balance + pnl.min(Decimal::ZERO).max(-balance) + pnl.max(Decimal::ZERO)
            - out.liquidation_fee;
        legs.transfer(backing, trading(user_id), left);
    }
    (legs, out)
}

/// The legs of a funding payment: `payment` positive is paid by the position to the
/// counterparty, negative received from it. A payer pays at most `balance` (its isolated margin,
/// or the cross wallet); returns what was paid (signed like `payment`).
pub fn funding_legs(
    user_id: i64,
    isolated: bool,
    payment: Decimal,
    balance: Decimal,
) -> (Legs, Decimal) {
    let mut legs = Legs::new();
    let backing = if isolated {
        margin(user_id)
    } else {
        trading(user_id)
    };
    let paid = if payment > Decimal::ZERO {
        payment.min(balance.max(Decimal::ZERO))
    } else {
        payment
    };
    legs.transfer(backing, COUNTERPARTY, paid);
    (legs, paid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    fn sums_to_zero(legs: &Legs) -> bool {
        legs.postings()
            .iter()
            .map(|p| p.amount)
            .sum::<Decimal>()
            .is_zero()
    }

    #[test]
    fn an_isolated_liquidation_pays_the_loss_and_the_rest_to_the_fund() {
        // Margin 5,000, loss 4,800 at the mark: 200 left, all of it the liquidation fee.
        let (legs, out) = liquidation_legs(7, true, dec!(5000), dec!(-4800), dec!(5000), dec!(0));
        assert_eq!(out.liquidation_fee, dec!(200));
        assert_eq!(legs.net(margin(7)), dec!(-5000));
        assert_eq!(legs.net(COUNTERPARTY), dec!(4800));
        assert_eq!(legs.net(SECURITY_FUND), dec!(200));
        assert!(sums_to_zero(&legs));
        // A loss beyond the margin: the fund covers what it can.
        let (legs, out) = liquidation_legs(7, true, dec!(5000), dec!(-5100), dec!(5000), dec!(60));
        assert_eq!((out.covered_by_fund, out.uncovered), (dec!(60), dec!(40)));
        assert_eq!(legs.net(SECURITY_FUND), dec!(-60));
        assert_eq!(legs.net(margin(7)), dec!(-5000));
    }

    #[test]
    fn a_fill_releases_the_hold_and_charges_the_fee_with_the_fund_share() {
        let (legs, charged) = fill_legs(
            &FillAmounts {
                user_id: 3,
                isolated: true,
                released_hold: dec!(5030),
                opened_margin: dec!(5000),
                fee: dec!(25),
                trading_before: dec!(0),
                ..FillAmounts::default()
            },
            dec!(10),
        );
        assert_eq!(charged.fee, dec!(25));
        assert_eq!(legs.net(trading(3)), dec!(5));
        assert_eq!(legs.net(margin(3)), dec!(-30));
        assert_eq!(legs.net(FEES), dec!(22.5));
        assert_eq!(legs.net(SECURITY_FUND), dec!(2.5));
        // The user reads the opened margin and the fee as one posting each (25, not 22.5 and 2.5).
        let fee_rows: Vec<Decimal> = legs
            .postings()
            .iter()
            .filter(|p| p.account == trading(3) && p.amount.is_sign_negative())
            .map(|p| p.amount)
            .collect();
        assert_eq!(fee_rows, vec![dec!(-5000), dec!(-25)]);
    }

    proptest! {
        /// Conservation: whatever a fill, a liquidation or a funding payment moves, the user's
        /// accounts, the counterparty, the fees and the fund sum to zero, and no user account is
        /// asked for more than it holds.
        #[test]
        fn every_settlement_conserves_money(
            hold in 0i64..1_000_000, released in 0i64..1_000_000, pnl in -2_000_000i64..2_000_000,
            opened in 0i64..1_000_000, fee in 0i64..10_000, wallet in 0i64..3_000_000,
            fund in 0i64..100_000, isolated in any::<bool>(),
        ) {
            let c = |v: i64| Decimal::new(v, 2);
            let (legs, _) = fill_legs(&FillAmounts {
                user_id: 1, isolated, released_hold: c(hold), released_margin: c(released),
                realised_pnl: c(pnl),
                // The engine opens only what the cash after the closed part's PnL covers.
                opened_margin: c(opened).min(c(wallet + hold + released + pnl).max(Decimal::ZERO)),
                fee: c(fee), trading_before: c(wallet), security_fund_before: c(fund),
            }, dec!(10));
            prop_assert!(sums_to_zero(&legs));
            prop_assert!(c(wallet) + legs.net(trading(1)) >= Decimal::ZERO);
            prop_assert!(c(fund) + legs.net(SECURITY_FUND) >= Decimal::ZERO);
            let (legs, _) = liquidation_legs(1, isolated, c(wallet), c(pnl), c(fee), c(fund));
            prop_assert!(sums_to_zero(&legs));
            let backing = if isolated { margin(1) } else { trading(1) };
            prop_assert!(c(wallet) + legs.net(backing) >= Decimal::ZERO);
            prop_assert!(c(fund) + legs.net(SECURITY_FUND) >= Decimal::ZERO);
            if isolated {
                prop_assert_eq!(c(wallet) + legs.net(backing), Decimal::ZERO);
            }
            let (legs, paid) = funding_legs(1, isolated, c(pnl), c(wallet));
            prop_assert!(sums_to_zero(&legs));
            prop_assert!(paid <= c(wallet).max(c(pnl).min(Decimal::ZERO)));
        }
    }
}
