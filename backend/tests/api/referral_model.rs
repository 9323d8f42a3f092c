//! A property test of the rebate batch against the ledger: random referral trees (up to three
//! ancestors per payer), random agents' rates (whose mix across generations may pass the fee, so
//! the cap is exercised), random spot fills with random fees on both sides, each fee posted to the
//! platform's fee income and the security fund as trading posts it. One batch run on SQLite then
//! pays, per fill and payer, never more than the fee after the fund; each row's rate is the
//! ancestor's agent rate or the configured one; every beneficiary's funding balance is exactly
//! what its rows say; the fee income keeps the rest; the audit finds the ledger balanced; and a
//! second run pays nothing.

use std::collections::BTreeMap;

use backend::entity::{referral_agent, referral_ancestor, referral_rebate, spot_trade};
use backend::funds::audit::audit;
use backend::funds::fees::security_fund_share;
use backend::funds::ledger::{self, AccountRef, House, NewEntry, Posting};
use backend::referral::batch::{HOUR_MS, Settings, run_batch};
use backend::referral::qualify::Rules;
use proptest::prelude::*;
use rust_decimal::Decimal;
use sea_orm::{ActiveValue::Set, EntityTrait};

/// Payers are users 100 + i, ancestors 200 + j.
const PAYERS: i64 = 4;
const ANCESTORS: i64 = 6;
const DEFAULT_RATES: [Decimal; 3] = [
    Decimal::from_parts(2, 0, 0, false, 1),
    Decimal::from_parts(1, 0, 0, false, 1),
    Decimal::from_parts(5, 0, 0, false, 2),
];

#[derive(Debug, Clone)]
struct Fill {
    taker: Option<i64>,
    maker: Option<i64>,
    taker_buys: bool,
    taker_fee: Decimal,
    maker_fee: Decimal,
}

fn fee() -> impl Strategy<Value = Decimal> {
    (0i64..=5_000_000_000, 0u32..=8).prop_map(|(m, s)| Decimal::new(m, s))
}

fn rate() -> impl Strategy<Value = Decimal> {
    (0i64..=9_000).prop_map(|m| Decimal::new(m, 4))
}

fn fill() -> impl Strategy<Value = Fill> {
    let payer = proptest::option::of(0..PAYERS);
    (payer.clone(), payer, any::<bool>(), fee(), fee()).prop_map(
        |(taker, maker, taker_buys, taker_fee, maker_fee)| Fill {
            taker: taker.map(|p| 100 + p),
            // No self-trade: the engines cancel an order that would meet its owner's.
            maker: maker.filter(|m| Some(*m) != taker).map(|p| 100 + p),
            taker_buys,
            taker_fee,
            maker_fee,
        },
    )
}

/// Each payer's ancestors, generation 1 first (distinct ancestors, none of them a payer).
fn trees() -> impl Strategy<Value = Vec<Vec<i64>>> {
    proptest::collection::vec(
        Just((0..ANCESTORS).map(|a| 200 + a).collect::<Vec<_>>())
            .prop_shuffle()
            .prop_flat_map(|all| (0..=3usize).prop_map(move |n| all[..n].to_vec())),
        PAYERS as usize,
    )
}

/// Agents among the ancestors, with rates of their own.
fn agents() -> impl Strategy<Value = BTreeMap<i64, [Decimal; 3]>> {
    proptest::collection::btree_map(
        200..200 + ANCESTORS,
        proptest::array::uniform3(rate()),
        0..=3,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn rebates_never_pass_the_fee_and_the_ledger_balances(
        trees in trees(),
        agents in agents(),
        fills in proptest::collection::vec(fill(), 1..12),
    ) {
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        runtime.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let config = backend::config::Config {
                data_dir: dir.path().to_path_buf(),
                ..backend::config::Config::default()
            };
            let db = backend::db::connect(&config).await.unwrap();
            let percent = Decimal::TEN;
            let now = backend::clock::now_ms() + HOUR_MS;
            let then = backend::clock::now_ms() - HOUR_MS;
            for (payer, ancestors) in trees.iter().enumerate() {
                for (generation, ancestor) in ancestors.iter().enumerate() {
                    referral_ancestor::Entity::insert(referral_ancestor::ActiveModel {
                        user_id: Set(100 + payer as i64),
                        ancestor_id: Set(*ancestor),
                        generation: Set(generation as i32 + 1),
                        created_at: Set(then),
                        ..Default::default()
                    })
                    .exec(&db)
                    .await
                    .unwrap();
                }
            }
            for (agent, rates) in &agents {
                referral_agent::Entity::insert(referral_agent::ActiveModel {
                    user_id: Set(*agent),
                    gen1_rate: Set(rates[0].to_string()),
                    gen2_rate: Set(rates[1].to_string()),
                    gen3_rate: Set(rates[2].to_string()),
                    created_by: Set(1),
                    created_at: Set(then),
                    updated_at: Set(then),
                })
                .exec(&db)
                .await
                .unwrap();
            }
            // Each fee arrives as trading posts it: the fund's share to the fund, the rest to the
            // fee income (here from outside, as the payers' balances are not what is tested).
            let mut income: BTreeMap<String, Decimal> = BTreeMap::new();
            for (n, fill) in fills.iter().enumerate() {
                let (taker_coin, maker_coin) = if fill.taker_buys { ("btc", "usdt") } else { ("usdt", "btc") };
                let mut postings = Vec::new();
                for (payer, coin, fee) in [
                    (fill.taker, taker_coin, fill.taker_fee),
                    (fill.maker, maker_coin, fill.maker_fee),
                ] {
                    if payer.is_none() || fee.is_zero() {
                        continue;
                    }
                    let share = security_fund_share(fee, percent);
                    let outside = AccountRef::House(House::DepositsInTransit);
                    postings.extend(Posting::transfer(outside, AccountRef::House(House::SecurityFund), coin, share));
                    postings.extend(Posting::transfer(outside, AccountRef::House(House::Fees), coin, fee - share));
                    *income.entry(coin.to_owned()).or_default() += fee - share;
                }
                postings.retain(|p| !p.amount.is_zero());
                let entry_id = if postings.is_empty() {
                    0
                } else {
                    ledger::post(&db, &NewEntry {
                        kind: "spot_trade".into(),
                        reference: format!("model-fill:{n}"),
                        user_id: None,
                        actor_id: None,
                        memo: String::new(),
                        postings,
                    })
                    .await
                    .unwrap()
                    .entry_id
                };
                spot_trade::Entity::insert(spot_trade::ActiveModel {
                    symbol: Set("btcusdt".into()),
                    taker_side: Set(if fill.taker_buys { "buy" } else { "sell" }.into()),
                    taker_order_id: Set(fill.taker.map(|_| n as i64 + 1)),
                    taker_user_id: Set(fill.taker),
                    maker_order_id: Set(fill.maker.map(|_| n as i64 + 1001)),
                    maker_user_id: Set(fill.maker),
                    price: Set("50000".into()),
                    quantity: Set("0.01".into()),
                    amount: Set("500".into()),
                    taker_fee: Set(fill.taker_fee.to_string()),
                    maker_fee: Set(fill.maker_fee.to_string()),
                    entry_id: Set(entry_id),
                    created_at: Set(then),
                    ..Default::default()
                })
                .exec(&db)
                .await
                .unwrap();
            }

            let settings = Settings {
                rates: DEFAULT_RATES,
                security_percent: percent,
                rules: Rules { unverified: false, same_address: false },
            };
            let report = run_batch(&db, &settings, now).await.unwrap();
            let rows = referral_rebate::Entity::find().all(&db).await.unwrap();
            let expected_rows: usize = fills
                .iter()
                .flat_map(|f| [f.taker, f.maker])
                .flatten()
                .map(|payer| trees[(payer - 100) as usize].len())
                .sum();
            prop_assert_eq!(rows.len(), expected_rows);
            prop_assert_eq!(report.paid + report.withheld, expected_rows);

            // Per fill and payer: never more than the fee after the fund, which is at most the fee.
            let mut per_fee: BTreeMap<(i64, i64, String), (Decimal, Decimal, Decimal)> =
                BTreeMap::new();
            let mut earned: BTreeMap<(i64, String), Decimal> = BTreeMap::new();
            let mut paid: BTreeMap<String, Decimal> = BTreeMap::new();
            for row in &rows {
                let amount: Decimal = row.amount.parse().unwrap();
                let fee: Decimal = row.fee.parse().unwrap();
                let after: Decimal = row.fee_after_fund.parse().unwrap();
                let rate: Decimal = row.rate.parse().unwrap();
                prop_assert!(amount >= Decimal::ZERO && amount.scale() <= 8, "{row:?}");
                prop_assert_eq!(after, fee - security_fund_share(fee, percent));
                let index = (row.generation - 1) as usize;
                let configured = agents.get(&row.beneficiary_id).map_or(DEFAULT_RATES[index], |own| own[index]);
                prop_assert_eq!(rate, configured, "{:?}", row);
                // With both rules off, only a zero fee withholds.
                prop_assert_eq!(
                    row.withheld_reason.as_deref(),
                    fee.is_zero().then_some("zero_fee"),
                    "{:?}",
                    row
                );
                prop_assert!(amount.is_zero() || row.entry_id.is_some(), "{row:?}");
                let slot = per_fee
                    .entry((row.fill_id, row.payer_id, row.coin.clone()))
                    .or_insert((fee, after, Decimal::ZERO));
                slot.2 += amount;
                *earned.entry((row.beneficiary_id, row.coin.clone())).or_default() += amount;
                *paid.entry(row.coin.clone()).or_default() += amount;
            }
            for ((fill, payer, _), (fee, after, total)) in &per_fee {
                prop_assert!(total <= after && after <= fee, "fill {fill} payer {payer}: {total} of {after} of {fee}");
            }
            for ((beneficiary, coin), amount) in &earned {
                let balance = ledger::balance(&db, AccountRef::funding(*beneficiary), coin).await.unwrap();
                prop_assert_eq!(balance, *amount, "{} {}", beneficiary, coin);
            }
            for coin in ["btc", "usdt"] {
                let fees = ledger::balance(&db, AccountRef::House(House::Fees), coin).await.unwrap();
                let kept = income.get(coin).copied().unwrap_or_default() - paid.get(coin).copied().unwrap_or_default();
                prop_assert_eq!(fees, kept, "{}", coin);
                prop_assert!(fees >= Decimal::ZERO);
            }
            let audited = audit(&db).await.unwrap();
            prop_assert!(audited.is_clean(), "{:?}", audited.problems);
            // Nothing twice.
            let again = run_batch(&db, &settings, now).await.unwrap();
            prop_assert_eq!(again, backend::referral::batch::Report::default());
            db.close().await.ok();
            Ok(())
        })?;
    }
}
