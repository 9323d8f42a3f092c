//! HTTP of `POST /api/userCoin/{action}` (spec section 7): the user's collected (favourite) coins
//! under the spec's path — `save` collects a market, `cancel` uncollects it — answering the whole
//! list. The same list as `/api/market/favourites` (see [`super::favourites`]);
//! `POST /api/userCoin/getUserCoin` (balances, a fixed path that takes precedence) is the funds
//! API's.

use poem::web::Data;
use poem_openapi::{Enum, Object, OpenApi, Tags, param::Path};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::api::{FavouriteEntry, FavouriteMarket, favourite_entries};
use super::favourites;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// The user's collected (favourite) coins.
    UserCoin,
}

/// The `userCoin` actions.
pub struct UserCoinApi;

/// What `POST /api/userCoin/{action}` does; any other action is 400 `invalid_field`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum UserCoinAction {
    /// Collects the market (adds it to the favourites); collecting it twice changes nothing.
    Save,
    /// Uncollects it; uncollecting one not collected changes nothing.
    Cancel,
}

/// The market a `userCoin` action is about.
#[derive(Debug, Clone, Object, Deserialize)]
#[serde(deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct UserCoinRequest {
    /// Pair id (`btcusdt`), any case; `save` needs a listed pair of the market (404
    /// `unknown_symbol` otherwise), `cancel` does not (a delisted pair can still leave the list).
    #[oai(validator(min_length = 1, max_length = 64))]
    pub symbol: String,
    /// The market list (`spot`, `contract`, `flash`); `spot` when absent.
    pub market: Option<FavouriteMarket>,
}

#[OpenApi(tag = "ApiTags::UserCoin")]
impl UserCoinApi {
    /// Collects (`save`) or uncollects (`cancel`) a market for the logged-in user and answers the
    /// whole favourites list, in the order the markets were collected. At most 200.
    #[oai(
        path = "/api/userCoin/:action",
        method = "post",
        operation_id = "userCoinAction"
    )]
    async fn user_coin_action(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// `save` or `cancel`.
        action: Path<UserCoinAction>,
        body: JsonBody<UserCoinRequest>,
    ) -> MemberResponse<Vec<FavouriteEntry>> {
        let body = body.0;
        let market = body.market.unwrap_or(FavouriteMarket::Spot).into();
        let collect = action.0 == UserCoinAction::Save;
        let result = favourites::set(db, auth.0.id(), market, &body.symbol, collect)
            .await
            .map(favourite_entries);
        MemberResponse::of(result, Msg::Success)
    }
}
