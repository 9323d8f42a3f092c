//! Database migrations of the exchange backend. The same migrations run on SQLite (the embedded
//! default) and PostgreSQL (`DATABASE_URL`); `backend serve` and `backend migrate` apply them at start.

pub use sea_orm_migration::prelude::*;

mod m20261121_000001_create_coin;
mod m20261121_000002_create_market_tick;
mod m20261121_000003_seed_coins;
mod m20261121_000004_create_market_candle;
mod m20261121_000005_create_accounts;
mod m20261121_000006_create_favourite;
mod m20261121_000007_create_ledger;
mod m20261121_000008_create_transfers;
mod m20261121_000009_create_deposits_withdrawals;
mod m20261121_000010_create_spot_orders;
mod m20261127_000011_create_seconds_orders;
mod m20261127_000012_create_futures;
mod m20261127_000013_create_futures_funding_round;
mod m20261128_000014_create_notification;
mod m20261128_000020_create_conversion_usage;
mod m20261129_000030_create_earn;
mod m20261201_000030_create_content;
mod m20261202_000010_create_loans;
mod m20261202_000020_create_referral;
mod m20261203_000010_create_tiers_merchants;
mod m20261203_000020_create_support;
mod m20261203_000060_user_frozen;
mod m20261203_000070_funding_once;
mod m20261203_000080_wallet;
mod m20261203_000100_market_owner;

/// Every migration, in the order it is applied.
pub struct Migrator;

#[async_trait::async_trait]
impl MigratorTrait for Migrator {
    fn migrations() -> Vec<Box<dyn MigrationTrait>> {
        vec![
            Box::new(m20261121_000001_create_coin::Migration),
            Box::new(m20261121_000002_create_market_tick::Migration),
            Box::new(m20261121_000003_seed_coins::Migration),
            Box::new(m20261121_000004_create_market_candle::Migration),
            Box::new(m20261121_000005_create_accounts::Migration),
            Box::new(m20261121_000006_create_favourite::Migration),
            Box::new(m20261121_000007_create_ledger::Migration),
            Box::new(m20261121_000008_create_transfers::Migration),
            Box::new(m20261121_000009_create_deposits_withdrawals::Migration),
            Box::new(m20261121_000010_create_spot_orders::Migration),
            Box::new(m20261127_000011_create_seconds_orders::Migration),
            Box::new(m20261127_000012_create_futures::Migration),
            Box::new(m20261127_000013_create_futures_funding_round::Migration),
            Box::new(m20261128_000014_create_notification::Migration),
            Box::new(m20261128_000020_create_conversion_usage::Migration),
            Box::new(m20261201_000030_create_content::Migration),
            Box::new(m20261129_000030_create_earn::Migration),
            Box::new(m20261202_000010_create_loans::Migration),
            Box::new(m20261202_000020_create_referral::Migration),
            Box::new(m20261203_000010_create_tiers_merchants::Migration),
            Box::new(m20261203_000020_create_support::Migration),
            Box::new(m20261203_000060_user_frozen::Migration),
            Box::new(m20261203_000070_funding_once::Migration),
            Box::new(m20261203_000080_wallet::Migration),
            Box::new(m20261203_000100_market_owner::Migration),
        ]
    }
}
