//! A member's favourite markets: list, add or remove one, and merge a list kept in the browser
//! (the webapp's visitor favourites, sent on the first login). A favourite is a market kind
//! (`spot`, `contract`, `flash`) and a listed pair of that kind; plain functions over the
//! connection, no HTTP types.

use std::collections::BTreeSet;

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, EntityTrait,
    PaginatorTrait, QueryFilter, QueryOrder, SqlErr,
};

use crate::entity::{coin, favourite};
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;

/// Most favourites one user keeps (and most entries one merge request may carry).
pub const MAX_FAVOURITES: usize = 200;

/// Which list of markets a favourite belongs to (the tabs of the markets page).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum MarketKind {
    /// A spot pair (`currencyList`).
    Spot,
    /// A USDT-M perpetual (`contractList`).
    Contract,
    /// A seconds (flash) contract on a spot pair.
    Flash,
}

impl MarketKind {
    /// The stored and transmitted name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Spot => "spot",
            Self::Contract => "contract",
            Self::Flash => "flash",
        }
    }

    /// The kind named `text`, if any.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "spot" => Some(Self::Spot),
            "contract" => Some(Self::Contract),
            "flash" => Some(Self::Flash),
            _ => None,
        }
    }

    /// Whether `coin` is listed in this kind's market.
    fn lists(self, coin: &coin::Model) -> bool {
        match self {
            Self::Spot | Self::Flash => coin.spot_enabled,
            Self::Contract => coin.contract_enabled,
        }
    }
}

/// One favourite: a market kind and a pair id (lower case).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Favourite {
    /// The market kind.
    pub market: MarketKind,
    /// The pair id, lower case.
    pub symbol: String,
}

/// The favourites of `user_id`, in the order they were added.
pub async fn list(db: &DatabaseConnection, user_id: i64) -> Result<Vec<Favourite>, Refusal> {
    let rows = favourite::Entity::find()
        .filter(favourite::Column::UserId.eq(user_id))
        .order_by_asc(favourite::Column::Id)
        .all(db)
        .await?;
    Ok(rows
        .into_iter()
        .filter_map(|row| {
            Some(Favourite {
                market: MarketKind::parse(&row.market)?,
                symbol: row.symbol,
            })
        })
        .collect())
}

/// The listed pair `symbol` (any case, trimmed) of `market`, or 404 naming `field`.
async fn listed(
    db: &DatabaseConnection,
    market: MarketKind,
    symbol: &str,
    field: &str,
) -> Result<String, Refusal> {
    let symbol = symbol.trim().to_ascii_lowercase();
    let coin = coin::Entity::find()
        .filter(coin::Column::Symbol.eq(&symbol))
        .one(db)
        .await?;
    match coin {
        Some(coin) if market.lists(&coin) => Ok(coin.symbol),
        _ => Err(Refusal::new(RefusalKind::NotFound, Msg::UnknownSymbol)
            .with_field(field)
            .with_param("symbol", symbol)),
    }
}

/// Adds (`favourite`) or removes a market for `user_id` and answers the whole list. Adding one
/// already there, or removing one that is not, changes nothing.
pub async fn set(
    db: &DatabaseConnection,
    user_id: i64,
    market: MarketKind,
    symbol: &str,
    favourite: bool,
) -> Result<Vec<Favourite>, Refusal> {
    if favourite {
        let symbol = listed(db, market, symbol, "symbol").await?;
        insert(db, user_id, market, &symbol).await?;
    } else {
        // Removing needs no listing: a delisted pair can still leave the list.
        favourite::Entity::delete_many()
            .filter(favourite::Column::UserId.eq(user_id))
            .filter(favourite::Column::Market.eq(market.as_str()))
            .filter(favourite::Column::Symbol.eq(symbol.trim().to_ascii_lowercase()))
            .exec(db)
            .await?;
    }
    list(db, user_id).await
}

/// Adds every market of `favourites` that `user_id` does not have yet (pairs no longer listed
/// are skipped) and answers the whole list.
pub async fn merge(
    db: &DatabaseConnection,
    user_id: i64,
    favourites: &[(MarketKind, String)],
) -> Result<Vec<Favourite>, Refusal> {
    if favourites.len() > MAX_FAVOURITES {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("favourites"));
    }
    let mut wanted = BTreeSet::new();
    for (market, symbol) in favourites {
        match listed(db, *market, symbol, "favourites").await {
            Ok(symbol) => {
                wanted.insert((*market, symbol));
            }
            Err(error) if error.kind == RefusalKind::NotFound => {}
            Err(error) => return Err(error),
        }
    }
    for (market, symbol) in wanted {
        insert(db, user_id, market, &symbol).await?;
    }
    list(db, user_id).await
}

/// Stores one favourite unless it is there already; refuses a list longer than [`MAX_FAVOURITES`].
async fn insert(
    db: &DatabaseConnection,
    user_id: i64,
    market: MarketKind,
    symbol: &str,
) -> Result<(), Refusal> {
    let existing = favourite::Entity::find()
        .filter(favourite::Column::UserId.eq(user_id))
        .filter(favourite::Column::Market.eq(market.as_str()))
        .filter(favourite::Column::Symbol.eq(symbol))
        .one(db)
        .await?;
    if existing.is_some() {
        return Ok(());
    }
    let count = favourite::Entity::find()
        .filter(favourite::Column::UserId.eq(user_id))
        .count(db)
        .await?;
    if count as usize >= MAX_FAVOURITES {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("symbol"));
    }
    let row = favourite::ActiveModel {
        user_id: Set(user_id),
        market: Set(market.as_str().to_owned()),
        symbol: Set(symbol.to_owned()),
        created_at: Set(now_ms()),
        ..Default::default()
    };
    match row.insert(db).await {
        Ok(_) => Ok(()),
        // Two requests adding the same favourite at once: the unique index keeps one.
        Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Ok(())
        }
        Err(error) => Err(error.into()),
    }
}
