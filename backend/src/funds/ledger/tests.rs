//! Unit tests of the ledger: entry checks, account rules and posting.

use rust_decimal_macros::dec;

use super::*;

fn entry(postings: Vec<Posting>) -> NewEntry {
    NewEntry {
        kind: "test".into(),
        reference: "test:1".into(),
        user_id: None,
        actor_id: None,
        memo: String::new(),
        postings,
    }
}

#[test]
fn an_entry_must_balance_per_asset() {
    let user = AccountRef::funding(1);
    let ok = entry(
        Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            user,
            "usdt",
            dec!(5),
        )
        .to_vec(),
    );
    assert!(check(&ok).is_ok());
    let mut unbalanced = ok.clone();
    unbalanced.postings[1].amount = dec!(4);
    assert!(matches!(
        check(&unbalanced),
        Err(LedgerError::Unbalanced { .. })
    ));
    let mut mixed = ok.clone();
    mixed.postings[1].asset = "btc".into();
    assert!(matches!(check(&mixed), Err(LedgerError::Unbalanced { .. })));
}

#[test]
fn amounts_and_assets_are_checked() {
    let user = AccountRef::funding(1);
    let house = AccountRef::House(House::DepositsInTransit);
    assert!(matches!(check(&entry(vec![])), Err(LedgerError::Empty)));
    let zero = entry(Posting::transfer(house, user, "usdt", dec!(0)).to_vec());
    assert!(matches!(check(&zero), Err(LedgerError::InvalidAmount(_))));
    let bad = entry(Posting::transfer(house, user, "US DT", dec!(1)).to_vec());
    assert!(matches!(check(&bad), Err(LedgerError::InvalidAsset(_))));
}

#[test]
fn only_outward_house_accounts_may_go_negative() {
    assert!(AccountRef::House(House::DepositsInTransit).may_go_negative());
    assert!(AccountRef::House(House::MarketMaker).may_go_negative());
    assert!(!AccountRef::House(House::Fees).may_go_negative());
    assert!(!AccountRef::funding(1).may_go_negative());
}
