//! The pairs listed on a new installation: real coins against USDT, with realistic reference prices,
//! tick and step sizes and daily volatilities for the market simulator. Operators add more later.

use sea_orm_migration::prelude::*;

use crate::m20261121_000001_create_coin::Coin;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// One seeded pair: base coin, reference price, price decimals, quantity decimals, daily
/// volatility, hot on the home page, also listed as a USDT-M perpetual.
struct Seed {
    coin: &'static str,
    reference_price: &'static str,
    price_precision: u32,
    quantity_precision: u32,
    daily_volatility: &'static str,
    hot: bool,
    contract: bool,
}

const SEEDS: &[Seed] = &[
    Seed {
        coin: "btc",
        reference_price: "96512.40",
        price_precision: 2,
        quantity_precision: 5,
        daily_volatility: "0.028",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "eth",
        reference_price: "3452.17",
        price_precision: 2,
        quantity_precision: 4,
        daily_volatility: "0.036",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "bnb",
        reference_price: "641.30",
        price_precision: 2,
        quantity_precision: 3,
        daily_volatility: "0.030",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "sol",
        reference_price: "187.42",
        price_precision: 2,
        quantity_precision: 3,
        daily_volatility: "0.048",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "xrp",
        reference_price: "2.3481",
        price_precision: 4,
        quantity_precision: 1,
        daily_volatility: "0.045",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "doge",
        reference_price: "0.32154",
        price_precision: 5,
        quantity_precision: 0,
        daily_volatility: "0.055",
        hot: true,
        contract: true,
    },
    Seed {
        coin: "ada",
        reference_price: "0.9213",
        price_precision: 4,
        quantity_precision: 1,
        daily_volatility: "0.050",
        hot: false,
        contract: true,
    },
    Seed {
        coin: "ltc",
        reference_price: "104.86",
        price_precision: 2,
        quantity_precision: 3,
        daily_volatility: "0.040",
        hot: false,
        contract: true,
    },
    Seed {
        coin: "trx",
        reference_price: "0.24317",
        price_precision: 5,
        quantity_precision: 0,
        daily_volatility: "0.030",
        hot: false,
        contract: false,
    },
    Seed {
        coin: "dot",
        reference_price: "7.214",
        price_precision: 3,
        quantity_precision: 2,
        daily_volatility: "0.052",
        hot: false,
        contract: false,
    },
    Seed {
        coin: "avax",
        reference_price: "38.27",
        price_precision: 2,
        quantity_precision: 2,
        daily_volatility: "0.055",
        hot: false,
        contract: false,
    },
    Seed {
        coin: "link",
        reference_price: "21.384",
        price_precision: 3,
        quantity_precision: 2,
        daily_volatility: "0.050",
        hot: false,
        contract: false,
    },
];

/// `10^-n` as a decimal string: the tick size for `n` price decimals.
fn step(decimals: u32) -> String {
    if decimals == 0 {
        "1".to_owned()
    } else {
        format!("0.{}1", "0".repeat(decimals as usize - 1))
    }
}

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let mut insert = Query::insert()
            .into_table(Coin::Table)
            .columns([
                Coin::Coin,
                Coin::BaseCoin,
                Coin::Symbol,
                Coin::ShowSymbol,
                Coin::CustomizeFlag,
                Coin::Market,
                Coin::SpotEnabled,
                Coin::ContractEnabled,
                Coin::PricePrecision,
                Coin::QuantityPrecision,
                Coin::TickSize,
                Coin::StepSize,
                Coin::MinNotional,
                Coin::ReferencePrice,
                Coin::DailyVolatility,
                Coin::Logo,
                Coin::Hot,
                Coin::Sort,
                Coin::CreatedAt,
            ])
            .to_owned();
        for (index, seed) in SEEDS.iter().enumerate() {
            insert.values_panic([
                seed.coin.into(),
                "usdt".into(),
                format!("{}usdt", seed.coin).into(),
                format!("{}/USDT", seed.coin.to_uppercase()).into(),
                1.into(),
                "crypto".into(),
                true.into(),
                seed.contract.into(),
                (seed.price_precision as i32).into(),
                (seed.quantity_precision as i32).into(),
                step(seed.price_precision).into(),
                step(seed.quantity_precision).into(),
                "5".into(),
                seed.reference_price.into(),
                seed.daily_volatility.into(),
                format!("/coin-logos/{}.svg", seed.coin).into(),
                seed.hot.into(),
                (index as i32 + 1).into(),
                0i64.into(),
            ]);
        }
        manager.exec_stmt(insert).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        let symbols: Vec<String> = SEEDS.iter().map(|s| format!("{}usdt", s.coin)).collect();
        manager
            .exec_stmt(
                Query::delete()
                    .from_table(Coin::Table)
                    .and_where(Expr::col(Coin::Symbol).is_in(symbols))
                    .to_owned(),
            )
            .await
    }
}
