//! Rules of the platform-wide calls, free of HTTP: what the settings are, which pairs are listed
//! with which live prices, and listing a new pair (`list_coin`, behind `backend add-coin`).

use sea_orm::{DatabaseConnection, EntityTrait, QueryOrder};

use crate::config::PlatformConfig;
use crate::entity::coin;
use crate::i18n::{ALL_LANGS, Lang};
use crate::market::{MarketHub, Ticker};

/// Which list a coin-list query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MarketKind {
    /// Spot pairs (`currencyList`).
    Spot,
    /// USDT-M perpetuals (`contractList`).
    Contract,
}

/// A coin-list query.
#[derive(Debug, Clone, Default)]
pub struct CoinFilter {
    /// Only this list, when given.
    pub market: Option<MarketKind>,
    /// Only pairs whose symbol or base coin contains this text (any case), when given.
    pub keyword: Option<String>,
}

/// A listed pair with its latest ticker (none before the market source has produced one).
#[derive(Debug, Clone)]
pub struct ListedPair {
    /// The listing.
    pub coin: coin::Model,
    /// The latest ticker.
    pub ticker: Option<Ticker>,
}

/// The spot and contract lists.
#[derive(Debug, Clone, Default)]
pub struct CoinLists {
    /// Spot pairs.
    pub spot: Vec<ListedPair>,
    /// USDT-M perpetuals.
    pub contract: Vec<ListedPair>,
}

/// The listed pairs, in display order, with their latest tickers.
pub async fn coin_lists(
    db: &DatabaseConnection,
    hub: &MarketHub,
    filter: &CoinFilter,
) -> Result<CoinLists, sea_orm::DbErr> {
    let coins = coin::Entity::find()
        .order_by_asc(coin::Column::Sort)
        .order_by_asc(coin::Column::Id)
        .all(db)
        .await?;
    let keyword = filter
        .keyword
        .as_deref()
        .map(|k| k.trim().to_ascii_lowercase())
        .filter(|k| !k.is_empty());
    let matches = |coin: &coin::Model| {
        keyword.as_deref().is_none_or(|k| {
            coin.symbol.contains(k)
                || coin.coin.contains(k)
                || coin.show_symbol.to_ascii_lowercase().contains(k)
        })
    };
    let wants = |kind| filter.market.is_none_or(|m| m == kind);
    let mut lists = CoinLists::default();
    for coin in coins.into_iter().filter(|c| matches(c)) {
        let pair = ListedPair {
            ticker: hub.ticker(&coin.symbol),
            coin,
        };
        if pair.coin.contract_enabled && wants(MarketKind::Contract) {
            lists.contract.push(pair.clone());
        }
        if pair.coin.spot_enabled && wants(MarketKind::Spot) {
            lists.spot.push(pair);
        }
    }
    Ok(lists)
}

/// The languages offered, in the switcher's order, each named in itself.
pub fn languages() -> Vec<(Lang, &'static str)> {
    ALL_LANGS
        .iter()
        .map(|lang| (*lang, lang.native_name()))
        .collect()
}

/// The platform config script: assigns the public settings to `window.__PLATFORM_CONFIG__`.
pub fn config_script(platform: &PlatformConfig) -> String {
    let config = serde_json::json!({
        "siteName": platform.site_name,
        "apiBaseUrl": "",
        "wsBaseUrl": "",
        "apiHead": platform.api_head,
        "mobileSiteUrl": platform.mobile_site_url,
        "securityFundPercent": platform.security_fund_percent,
    });
    // serde_json escapes quotes and control characters; `</` is escaped as well so the text is
    // safe even if a page ever inlines it into a <script> element.
    let json = config.to_string().replace("</", "<\\/");
    format!("window.__PLATFORM_CONFIG__ = {json};\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_config_script_assigns_the_settings() {
        let platform = PlatformConfig {
            site_name: "A \"quoted\" </script> name".into(),
            ..PlatformConfig::default()
        };
        let script = config_script(&platform);
        assert!(script.starts_with("window.__PLATFORM_CONFIG__ = {"));
        assert!(!script.contains("</script>"));
        let json = script
            .trim_start_matches("window.__PLATFORM_CONFIG__ = ")
            .trim_end()
            .trim_end_matches(';');
        let value: serde_json::Value = serde_json::from_str(json).unwrap();
        assert_eq!(value["siteName"], "A \"quoted\" </script> name");
        assert_eq!(value["apiHead"], "coin");
    }

    #[test]
    fn fourteen_languages_english_first() {
        let languages = languages();
        assert_eq!(languages.len(), 14);
        assert_eq!(languages[0], (Lang::En, "English"));
    }
}

/// A pair an operator lists (against USDT).
#[derive(Debug, Clone)]
pub struct NewCoin {
    /// Base asset, 2 to 16 lower-case letters or digits (`pepe`).
    pub coin: String,
    /// The price the market source starts from.
    pub reference_price: rust_decimal::Decimal,
    /// Decimals of the price (0 to 12).
    pub price_precision: u32,
    /// Decimals of the quantity (0 to 12).
    pub quantity_precision: u32,
    /// Daily volatility of the simulated price, as a fraction (above 0, at most 1).
    pub daily_volatility: rust_decimal::Decimal,
    /// Also listed as a USDT-M perpetual.
    pub contract: bool,
    /// Shown among the home page's hot coins.
    pub hot: bool,
}

/// Why a pair could not be listed.
#[derive(Debug, thiserror::Error)]
pub enum ListingError {
    /// The coin name is not 2 to 16 lower-case letters or digits.
    #[error("the coin must be 2 to 16 lower-case letters or digits, not {0:?}")]
    CoinName(String),
    /// A value is out of its range.
    #[error("{0} is out of range")]
    OutOfRange(&'static str),
    /// The pair is listed already.
    #[error("{0} is listed already")]
    Listed(String),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] sea_orm::DbErr),
}

/// Lists `new` against USDT with its new-pair announcement in every shipped language (one
/// transaction); the running market source starts quoting it within seconds and announces it on
/// `/ws/business/notice`, and so does the content announcer for the announcement.
pub async fn list_coin(
    db: &DatabaseConnection,
    new: &NewCoin,
) -> Result<coin::Model, ListingError> {
    use rust_decimal::Decimal;
    use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, QueryFilter, TransactionTrait};

    let name_ok = (2..=16).contains(&new.coin.len())
        && new
            .coin
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if !name_ok || new.coin == "usdt" {
        return Err(ListingError::CoinName(new.coin.clone()));
    }
    if new.reference_price.round_dp(new.price_precision) <= Decimal::ZERO {
        return Err(ListingError::OutOfRange("the price"));
    }
    if new.price_precision > 12 || new.quantity_precision > 12 {
        return Err(ListingError::OutOfRange("a precision"));
    }
    if new.daily_volatility <= Decimal::ZERO || new.daily_volatility > Decimal::ONE {
        return Err(ListingError::OutOfRange("the daily volatility"));
    }
    let symbol = format!("{}usdt", new.coin);
    if coin::Entity::find()
        .filter(coin::Column::Symbol.eq(&symbol))
        .one(db)
        .await?
        .is_some()
    {
        return Err(ListingError::Listed(symbol));
    }
    let step = |decimals: u32| Decimal::new(1, decimals).to_string();
    let sort = coin::Entity::find()
        .all(db)
        .await?
        .iter()
        .map(|c| c.sort)
        .max()
        .unwrap_or(0)
        + 1;
    let model = coin::ActiveModel {
        coin: Set(new.coin.clone()),
        base_coin: Set("usdt".into()),
        symbol: Set(symbol),
        show_symbol: Set(format!("{}/USDT", new.coin.to_uppercase())),
        customize_flag: Set(1),
        market: Set("crypto".into()),
        spot_enabled: Set(true),
        contract_enabled: Set(new.contract),
        price_precision: Set(new.price_precision as i32),
        quantity_precision: Set(new.quantity_precision as i32),
        tick_size: Set(step(new.price_precision)),
        step_size: Set(step(new.quantity_precision)),
        min_notional: Set("5".into()),
        reference_price: Set(new
            .reference_price
            .round_dp(new.price_precision)
            .normalize()
            .to_string()),
        daily_volatility: Set(new.daily_volatility.to_string()),
        logo: Set(format!("/coin-logos/{}.svg", new.coin)),
        hot: Set(new.hot),
        sort: Set(sort),
        created_at: Set(crate::clock::now_ms()),
        ..Default::default()
    };
    // The listing and its new-pair announcement (every shipped language) commit together.
    let txn = db.begin().await?;
    let listed = model.insert(&txn).await?;
    crate::content::listing::announce(&txn, &listed).await?;
    txn.commit().await?;
    Ok(listed)
}
