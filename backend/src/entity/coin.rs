//! A listed trading pair (`coin` table).

use sea_orm::entity::prelude::*;

/// One listed pair.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "coin")]
pub struct Model {
    /// Coin id.
    #[sea_orm(primary_key)]
    pub id: i32,
    /// Base asset, lower case (`btc`).
    pub coin: String,
    /// Quote asset, lower case (`usdt`).
    pub base_coin: String,
    /// Pair id, lower case (`btcusdt`).
    #[sea_orm(unique)]
    pub symbol: String,
    /// Display name (`BTC/USDT`).
    pub show_symbol: String,
    /// 2: display `show_symbol`; 1: derive the name.
    pub customize_flag: i32,
    /// Price source (`crypto`).
    pub market: String,
    /// Listed for spot trading.
    pub spot_enabled: bool,
    /// Listed as a USDT-M perpetual.
    pub contract_enabled: bool,
    /// Decimals of the price.
    pub price_precision: i32,
    /// Decimals of the quantity.
    pub quantity_precision: i32,
    /// Smallest price increment (decimal string).
    pub tick_size: String,
    /// Smallest quantity increment (decimal string).
    pub step_size: String,
    /// Smallest order value in the quote asset (decimal string).
    pub min_notional: String,
    /// Price the simulator starts from on a new installation (decimal string).
    pub reference_price: String,
    /// Daily volatility of the simulated price, as a fraction (decimal string, `0.03`).
    pub daily_volatility: String,
    /// Logo URL.
    pub logo: String,
    /// Shown among the home page's hot coins.
    pub hot: bool,
    /// Display order.
    pub sort: i32,
    /// Listing time, epoch milliseconds (0 for the seeded pairs).
    pub created_at: i64,
}

/// No relations yet.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
