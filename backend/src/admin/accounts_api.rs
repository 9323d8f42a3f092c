//! HTTP of the operator's account calls: `GET /api/admin/users/find` (an account by e-mail or
//! phone) and `POST /api/admin/users/{id}/freeze` / `…/unfreeze` (see [`super::accounts`]). Each
//! needs a session of an account with the `operator` role; anyone else gets 403.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::DatabaseConnection;

use super::accounts;
use crate::entity::user;
use crate::futures::FuturesRegistry;
use crate::http::MemberResponse;
use crate::i18n::Msg;
use crate::spot::SpotRegistry;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: freezing accounts.
    AdminAccounts,
}

/// The operator's account calls.
pub struct AdminAccountsApi;

/// An account as the operator's freeze screen shows it.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminAccount {
    /// The account's id (`userId`).
    pub user_id: i64,
    /// Its login e-mail, else phone.
    pub account: String,
    /// Whether it is frozen.
    pub frozen: bool,
    /// When it was frozen, Unix milliseconds.
    pub frozen_at: Option<i64>,
    /// The EIP-55 address of its linked Ethereum wallet, if any.
    pub wallet_address: Option<String>,
}

impl From<user::Model> for AdminAccount {
    fn from(user: user::Model) -> Self {
        Self {
            user_id: user.id,
            account: user.email.or(user.phone).unwrap_or_default(),
            frozen: user.frozen_at.is_some(),
            frozen_at: user.frozen_at,
            wallet_address: user.wallet_address,
        }
    }
}

#[OpenApi(tag = "ApiTags::AdminAccounts")]
impl AdminAccountsApi {
    /// The account of an e-mail address or phone number (operators only); 404
    /// `account_not_found` when there is none.
    #[oai(
        path = "/api/admin/users/find",
        method = "get",
        operation_id = "adminFindAccount"
    )]
    async fn find_account(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The e-mail address or phone number (`+` and country code) the user logs in with.
        account: Query<String>,
    ) -> MemberResponse<AdminAccount> {
        let result = accounts::find(db, &auth.0.user, &account.0).await;
        MemberResponse::of(result.map(AdminAccount::from), Msg::Success)
    }

    /// Freezes an account (operators only): it can no longer log in (`account_frozen`), every
    /// session of it ends, its open user channels get `USER_STATUS` `frozen` and close, and
    /// everything it has waiting in the markets is cancelled as its own cancel would (open spot
    /// orders, resting futures orders, stop orders, take-profit and stop-loss prices); its
    /// positions stay open. Freezing a frozen account keeps its freeze time and cancels only what
    /// is still open. 404 `account_not_found`; 403 `operator_not_freezable` for an operator's
    /// account.
    #[oai(
        path = "/api/admin/users/:id/freeze",
        method = "post",
        operation_id = "adminFreezeAccount"
    )]
    async fn freeze(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(spot): Data<&Arc<SpotRegistry>>,
        Data(futures): Data<&Arc<FuturesRegistry>>,
        auth: Satoken,
        /// The account's id.
        id: Path<i64>,
    ) -> MemberResponse<AdminAccount> {
        let result = accounts::freeze(db, spot, futures, &auth.0.user, id.0).await;
        MemberResponse::of(result.map(AdminAccount::from), Msg::AccountFrozenDone)
    }

    /// Unfreezes an account (operators only): its owner may log in again. Unfreezing an account
    /// that is not frozen changes nothing. 404 `account_not_found`.
    #[oai(
        path = "/api/admin/users/:id/unfreeze",
        method = "post",
        operation_id = "adminUnfreezeAccount"
    )]
    async fn unfreeze(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The account's id.
        id: Path<i64>,
    ) -> MemberResponse<AdminAccount> {
        let result = accounts::unfreeze(db, &auth.0.user, id.0).await;
        MemberResponse::of(result.map(AdminAccount::from), Msg::AccountUnfrozen)
    }
}
