//! Rules of the market data calls, free of HTTP: which pair a request means and its live ticker.

use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};

use crate::entity::coin;
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;
use crate::market::{MarketHub, Ticker};

/// A listed pair and its latest ticker (none while the market source has produced none).
pub struct PairQuote {
    /// The listing.
    pub coin: coin::Model,
    /// The latest ticker.
    pub ticker: Option<Ticker>,
}

/// The listed pair `symbol` (any case, trimmed) with its latest ticker; 404 when none is listed.
pub async fn quote(
    db: &DatabaseConnection,
    hub: &MarketHub,
    symbol: &str,
) -> Result<PairQuote, Refusal> {
    let symbol = symbol.trim().to_ascii_lowercase();
    let coin = coin::Entity::find()
        .filter(coin::Column::Symbol.eq(&symbol))
        .one(db)
        .await?
        .ok_or_else(|| {
            Refusal::new(RefusalKind::NotFound, Msg::UnknownSymbol)
                .with_field("symbol")
                .with_param("symbol", symbol.clone())
        })?;
    Ok(PairQuote {
        ticker: hub.ticker(&symbol),
        coin,
    })
}
