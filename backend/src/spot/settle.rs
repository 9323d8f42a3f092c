//! The journal entries of spot trading, built as plain values (the engine task posts them):
//!
//! - an order freezes what it may spend (funding → frozen: quote for a buy, base for a sell) when
//!   it is accepted, and releases what it did not spend when it leaves the book;
//! - a fill moves base from the seller to the buyer and quote from the buyer to the seller, out of
//!   their frozen funds (the house market maker pays and receives from its own account), and
//!   charges each user side its fee in the asset it receives: the platform keeps the fee, of
//!   which the security-fund share (10 % by default) goes to the security fund.
//!
//! Every entry balances per asset; fees follow wasm-core's `spot_fee`, the rule the order form's
//! preview shows.

use rust_decimal::Decimal;

use crate::funds::bill_detail;
use crate::funds::fees::security_fund_share;
use crate::funds::ledger::{AccountRef, Bucket, House, NewEntry, Posting};

/// Entry kind: funds held for an order.
pub const SPOT_FREEZE: &str = "spot_freeze";
/// Entry kind: held funds an order did not spend, given back.
pub const SPOT_RELEASE: &str = "spot_release";
/// Entry kind: a fill.
pub const SPOT_TRADE: &str = "spot_trade";

/// One side of a fill: a user, or the house market maker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Party {
    /// A user paying from their frozen funds and receiving into funding.
    User(i64),
    /// The house market maker (its own account, no fee).
    House,
}

impl Party {
    fn pays_from(self) -> AccountRef {
        match self {
            Party::User(user_id) => AccountRef::User {
                user_id,
                bucket: Bucket::Frozen,
            },
            Party::House => AccountRef::House(House::MarketMaker),
        }
    }

    fn receives_into(self) -> AccountRef {
        match self {
            Party::User(user_id) => AccountRef::funding(user_id),
            Party::House => AccountRef::House(House::MarketMaker),
        }
    }

    /// The user, if any.
    pub fn user_id(self) -> Option<i64> {
        match self {
            Party::User(user_id) => Some(user_id),
            Party::House => None,
        }
    }
}

/// The order a hold or release is for.
#[derive(Debug, Clone, Copy)]
pub struct HeldFor<'a> {
    /// The owner.
    pub user_id: i64,
    /// The order.
    pub order_id: i64,
    /// Its pair (for the memo).
    pub symbol: &'a str,
}

/// `amount` of `asset` held for order `order` (funding → frozen).
pub fn freeze(order: HeldFor<'_>, asset: &str, amount: Decimal) -> NewEntry {
    let memo = bill_detail::spot_hold_memo(order.symbol, order.order_id);
    hold_entry(SPOT_FREEZE, order, memo, asset, amount, true)
}

/// `amount` of `asset` given back to order `order`'s owner (frozen → funding).
pub fn release(order: HeldFor<'_>, asset: &str, amount: Decimal) -> NewEntry {
    let memo = bill_detail::spot_release_memo(order.symbol, order.order_id);
    hold_entry(SPOT_RELEASE, order, memo, asset, amount, false)
}

fn hold_entry(
    kind: &str,
    order: HeldFor<'_>,
    memo: String,
    asset: &str,
    amount: Decimal,
    to_frozen: bool,
) -> NewEntry {
    let HeldFor {
        user_id, order_id, ..
    } = order;
    let funding = AccountRef::funding(user_id);
    let frozen = AccountRef::User {
        user_id,
        bucket: Bucket::Frozen,
    };
    let (from, to) = if to_frozen {
        (funding, frozen)
    } else {
        (frozen, funding)
    };
    NewEntry {
        kind: kind.to_owned(),
        reference: bill_detail::spot_order_reference(order_id),
        user_id: Some(user_id),
        actor_id: Some(user_id),
        memo,
        postings: Posting::transfer(from, to, asset, amount).to_vec(),
    }
}

/// A fill as the ledger sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fill<'a> {
    /// Pair symbol (for the memo).
    pub symbol: &'a str,
    /// Base asset.
    pub base: &'a str,
    /// Quote asset.
    pub quote: &'a str,
    /// The buyer.
    pub buyer: Party,
    /// The seller.
    pub seller: Party,
    /// Base quantity.
    pub quantity: Decimal,
    /// Quote amount (price × quantity).
    pub amount: Decimal,
    /// The buyer's fee in base (zero for the house).
    pub buyer_fee: Decimal,
    /// The seller's fee in quote (zero for the house).
    pub seller_fee: Decimal,
}

/// The entry settling `fill` under `reference` (its orders); zero legs are left out.
pub fn fill_entry(fill: &Fill<'_>, reference: String, security_percent: Decimal) -> NewEntry {
    let mut postings = Vec::with_capacity(10);
    let mut leg = |account: AccountRef, asset: &str, amount: Decimal| {
        if !amount.is_zero() {
            postings.push(Posting {
                account,
                asset: asset.to_owned(),
                amount,
            });
        }
    };
    // Base: seller → buyer, the buyer's fee to the house.
    leg(fill.seller.pays_from(), fill.base, -fill.quantity);
    leg(
        fill.buyer.receives_into(),
        fill.base,
        fill.quantity - fill.buyer_fee,
    );
    // Quote: buyer → seller, the seller's fee to the house.
    leg(fill.buyer.pays_from(), fill.quote, -fill.amount);
    leg(
        fill.seller.receives_into(),
        fill.quote,
        fill.amount - fill.seller_fee,
    );
    for (asset, fee) in [(fill.base, fill.buyer_fee), (fill.quote, fill.seller_fee)] {
        let fund = security_fund_share(fee, security_percent);
        leg(AccountRef::House(House::Fees), asset, fee - fund);
        leg(AccountRef::House(House::SecurityFund), asset, fund);
    }
    NewEntry {
        kind: SPOT_TRADE.to_owned(),
        reference,
        user_id: fill.buyer.user_id().or(fill.seller.user_id()),
        actor_id: None,
        memo: bill_detail::spot_trade_memo(fill.symbol),
        postings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::funds::ledger::check;
    use rust_decimal_macros::dec;

    fn fill(buyer: Party, seller: Party) -> Fill<'static> {
        Fill {
            symbol: "btcusdt",
            base: "btc",
            quote: "usdt",
            buyer,
            seller,
            quantity: dec!(0.5),
            amount: dec!(32500),
            buyer_fee: if buyer == Party::House {
                dec!(0)
            } else {
                dec!(0.0005)
            },
            seller_fee: if seller == Party::House {
                dec!(0)
            } else {
                dec!(32.5)
            },
        }
    }

    fn leg(entry: &NewEntry, account: AccountRef, asset: &str) -> Decimal {
        entry
            .postings
            .iter()
            .filter(|p| p.account == account && p.asset == asset)
            .map(|p| p.amount)
            .sum()
    }

    #[test]
    fn a_fill_between_users_balances_and_splits_each_fee_ten_percent_to_the_fund() {
        let entry = fill_entry(
            &fill(Party::User(1), Party::User(2)),
            "spot_fill:9/4".into(),
            dec!(10),
        );
        check(&entry).unwrap();
        assert_eq!(entry.reference, "spot_fill:9/4");
        assert_eq!(leg(&entry, AccountRef::funding(1), "btc"), dec!(0.4995));
        assert_eq!(
            leg(
                &entry,
                AccountRef::User {
                    user_id: 1,
                    bucket: Bucket::Frozen
                },
                "usdt"
            ),
            dec!(-32500)
        );
        assert_eq!(leg(&entry, AccountRef::funding(2), "usdt"), dec!(32467.5));
        assert_eq!(
            leg(
                &entry,
                AccountRef::User {
                    user_id: 2,
                    bucket: Bucket::Frozen
                },
                "btc"
            ),
            dec!(-0.5)
        );
        assert_eq!(
            leg(&entry, AccountRef::House(House::SecurityFund), "usdt"),
            dec!(3.25)
        );
        assert_eq!(
            leg(&entry, AccountRef::House(House::Fees), "usdt"),
            dec!(29.25)
        );
        assert_eq!(
            leg(&entry, AccountRef::House(House::SecurityFund), "btc"),
            dec!(0.00005)
        );
        assert_eq!(
            leg(&entry, AccountRef::House(House::Fees), "btc"),
            dec!(0.00045)
        );
    }

    #[test]
    fn the_house_side_pays_and_receives_on_the_market_maker_account_without_a_fee() {
        let entry = fill_entry(
            &fill(Party::User(1), Party::House),
            "spot_fill:3/house".into(),
            dec!(10),
        );
        check(&entry).unwrap();
        let maker = AccountRef::House(House::MarketMaker);
        assert_eq!(leg(&entry, maker, "btc"), dec!(-0.5));
        assert_eq!(leg(&entry, maker, "usdt"), dec!(32500));
        assert_eq!(entry.user_id, Some(1));
    }

    #[test]
    fn freeze_and_release_are_mirror_transfers() {
        let frozen = AccountRef::User {
            user_id: 4,
            bucket: Bucket::Frozen,
        };
        let order = HeldFor {
            user_id: 4,
            order_id: 17,
            symbol: "btcusdt",
        };
        let hold = freeze(order, "usdt", dec!(100));
        check(&hold).unwrap();
        assert_eq!(leg(&hold, frozen, "usdt"), dec!(100));
        let back = release(order, "usdt", dec!(40));
        assert_eq!(leg(&back, frozen, "usdt"), dec!(-40));
        assert_eq!(back.reference, "spot_order:17");
    }
}
