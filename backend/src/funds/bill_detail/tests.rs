use rust_decimal_macros::dec;

use super::*;

/// The details of a memo of `kind` read by user 1 under `reference`.
fn read(kind: &str, memo: &str, reference: &str) -> Option<BillDetail> {
    parse(Entry {
        kind,
        memo,
        reference,
        reader: 1,
    })
}

fn of(kind: &str, memo: &str) -> BillDetail {
    read(kind, memo, "").unwrap_or_else(|| panic!("{kind}: {memo:?} has no detail"))
}

const TRON: Destination<'static> = Destination {
    coin: "usdt",
    network: "TRC20",
    address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
};

#[test]
fn every_futures_and_spot_trade_memo_reads_back() {
    let fill = of(
        "futures_fill",
        &fill_memo("btcusdt", "sell", dec!(0.0050), dec!(96899.46)),
    );
    assert_eq!(fill.symbol.as_deref(), Some("btcusdt"));
    assert_eq!(fill.side.as_deref(), Some("sell"));
    assert_eq!(fill.quantity, Some(dec!(0.005)));
    assert_eq!(fill.price, Some(dec!(96899.46)));
    let liquidation = of(
        "futures_liquidation",
        &liquidation_memo("ethusdt", dec!(3100.5)),
    );
    assert_eq!(liquidation.price, Some(dec!(3100.5)));
    let funding = of("futures_funding", &funding_memo("btcusdt", dec!(-0.0001)));
    assert_eq!(funding.rate, Some(dec!(-0.0001)));
    let margin = of("futures_margin", &margin_memo("btcusdt", "Add"));
    assert_eq!(margin.direction.as_deref(), Some("add"));
    // The memos written before the margin memo was lower case read the same.
    let old = of("futures_margin", "btcusdt margin Remove");
    assert_eq!(old.direction.as_deref(), Some("remove"));
    assert_eq!(
        of("futures_hold", &hold_memo("btcusdt")).symbol.as_deref(),
        Some("btcusdt")
    );
    let release = of("futures_release", &release_memo("btcusdt", 42, "cancelled"));
    assert_eq!(release.order_id, Some(42));
    assert_eq!(release.reason.as_deref(), Some("cancelled"));
    assert_eq!(
        of("spot_trade", &spot_trade_memo("btcusdt"))
            .symbol
            .as_deref(),
        Some("btcusdt")
    );
}

#[test]
fn deposits_and_every_step_of_a_withdrawal_read_back() {
    let deposit = of("deposit", &deposit_memo(dec!(10.50), "usdt", "TRC20"));
    assert_eq!(deposit.network.as_deref(), Some("TRC20"));
    assert_eq!(
        deposit_memo(dec!(10.50), "usdt", "TRC20"),
        "deposit 10.5 USDT (TRC20)"
    );

    let held = of("withdrawal", &withdrawal_hold_memo(dec!(50), TRON));
    let sent = of("withdrawal", &withdrawal_sent_memo(dec!(49), TRON));
    for (detail, stage) in [(&held, "held"), (&sent, "sent")] {
        assert_eq!(detail.stage.as_deref(), Some(stage));
        assert_eq!(detail.network.as_deref(), Some("TRC20"));
        assert_eq!(detail.address.as_deref(), Some(TRON.address));
    }
    let fee = of("fee", &withdrawal_fee_memo(dec!(1), TRON));
    assert_eq!(fee.fee_of.as_deref(), Some("withdrawal"));
    assert_eq!(fee.network.as_deref(), Some("TRC20"));
    let refund = of("withdrawal_refund", &withdrawal_refund_memo(dec!(50), TRON));
    assert_eq!(refund.network.as_deref(), Some("TRC20"));
    assert_eq!(refund.address.as_deref(), Some(TRON.address));
}

#[test]
fn the_withdrawal_memos_written_before_still_read() {
    let held = of(
        "withdrawal",
        "withdrawal 50.5 USDT to TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t (TRC20), held",
    );
    assert_eq!(
        (held.stage.as_deref(), held.network.as_deref()),
        (Some("held"), Some("TRC20"))
    );
    let sent = of(
        "withdrawal",
        "withdrawal 49.5 USDT to TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
    assert_eq!(
        (sent.stage.as_deref(), sent.network, sent.address.as_deref()),
        (Some("sent"), None, Some(TRON.address))
    );
    let fee = of("fee", "withdrawal fee 1 USDT");
    assert_eq!(
        (fee.fee_of.as_deref(), fee.network),
        (Some("withdrawal"), None)
    );
    let refund = of("withdrawal_refund", "withdrawal 50.5 USDT failed, returned");
    assert_eq!(refund, BillDetail::default());
}

#[test]
fn moves_transfers_and_conversions_read_back() {
    let moved = of(
        "bucket_transfer",
        &bucket_transfer_memo("funding", "trading"),
    );
    assert_eq!(
        (moved.from_bucket.as_deref(), moved.to_bucket.as_deref()),
        (Some("funding"), Some("trading"))
    );
    let swap = of(
        "exchange",
        &exchange_memo(dec!(100), "usdt", dec!(0.00103), "btc"),
    );
    assert_eq!(
        (swap.from_coin.as_deref(), swap.from_amount),
        (Some("usdt"), Some(dec!(100)))
    );
    assert_eq!(
        (swap.to_coin.as_deref(), swap.to_amount),
        (Some("btc"), Some(dec!(0.00103)))
    );
}

#[test]
fn a_transfer_reads_as_sent_by_the_sender_and_received_by_the_recipient() {
    let side = |memo: &str, reader: i64| {
        let detail = parse(Entry {
            kind: "user_transfer",
            memo,
            reference: &user_transfer_reference(7, 42),
            reader,
        })
        .unwrap();
        (detail.direction.unwrap(), detail.counterparty.unwrap())
    };
    // The memo written now, and the one written before (the sender from the reference).
    for memo in [user_transfer_memo(7, 42), "to user 42".to_owned()] {
        assert_eq!(side(&memo, 7), ("sent".to_owned(), 42), "{memo}");
        assert_eq!(side(&memo, 42), ("received".to_owned(), 7), "{memo}");
    }
}

#[test]
fn spot_holds_read_their_pair_and_order_or_the_order_of_the_reference() {
    let hold = of("spot_freeze", &spot_hold_memo("ethusdt", 17));
    assert_eq!(
        (hold.symbol.as_deref(), hold.order_id),
        (Some("ethusdt"), Some(17))
    );
    let back = of("spot_release", &spot_release_memo("ethusdt", 17));
    assert_eq!(back.order_id, Some(17));
    // Holds and releases were written with an empty memo before.
    for kind in ["spot_freeze", "spot_release"] {
        let old = read(kind, "", &spot_order_reference(17)).unwrap();
        assert_eq!((old.symbol, old.order_id), (None, Some(17)));
    }
}

#[test]
fn seconds_stakes_and_settlements_read_back() {
    let bet = SecondsBet {
        symbol: "btcusdt",
        direction: "up",
        period_seconds: 60,
        open_price: dec!(96000.5),
        open_tick: 12,
    };
    let stake = of("seconds_stake", &seconds_stake_memo(bet, dec!(25)));
    assert_eq!(stake.symbol.as_deref(), Some("btcusdt"));
    assert_eq!(stake.direction.as_deref(), Some("up"));
    assert_eq!(stake.period_seconds, Some(60));
    assert_eq!(stake.price, Some(dec!(96000.5)));
    let settle = of(
        "seconds_settle",
        &seconds_settle_memo(9, bet, "win", dec!(96100), 14),
    );
    assert_eq!(settle.order_id, Some(9));
    assert_eq!(settle.result.as_deref(), Some("win"));
    assert_eq!(settle.price, Some(dec!(96100)));
    assert_eq!(settle.open_price, Some(dec!(96000.5)));
    assert_eq!(settle.period_seconds, Some(60));
    // The form written before the writers moved here (the same text).
    let old = of(
        "seconds_settle",
        "seconds 3 ethusdt down 1s: tie at 3000 (tick 5) vs 3000 (tick 4)",
    );
    assert_eq!(
        (old.direction.as_deref(), old.result.as_deref()),
        (Some("down"), Some("tie"))
    );
}

#[test]
fn other_kinds_and_malformed_memos_have_no_detail() {
    assert_eq!(read("earn_income", "anything", ""), None);
    assert_eq!(read("deposit", "deposit ten USDT (TRC20)", ""), None);
    assert_eq!(read("futures_fill", "btcusdt sell x @ 1", ""), None);
    assert_eq!(read("futures_fill", "", ""), None);
    assert_eq!(read("futures_margin", "btcusdt margin sideways", ""), None);
    assert_eq!(read("bucket_transfer", "funding → moon", ""), None);
    assert_eq!(read("spot_freeze", "", "user:4"), None);
    assert_eq!(read("user_transfer", "to user 42", "user:7->user:43"), None);
    assert_eq!(
        read(
            "seconds_stake",
            "seconds btcusdt sideways 60s, stake 1 USDT at 1 (tick 1)",
            ""
        ),
        None
    );
}

#[test]
fn a_referral_rebate_memo_reads_back_its_time() {
    let detail = of("referral_rebate", &referral_rebate_memo(1_764_374_400_000));
    assert_eq!(detail.rebated_until, Some(1_764_374_400_000));
    assert_eq!(read("referral_rebate", "referral rebates", ""), None);
}
