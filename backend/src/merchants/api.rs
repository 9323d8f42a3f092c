//! HTTP of the merchant calls: `POST /api/merchant/apply` (the application form),
//! `GET /api/merchant/mine` (the user's application or merchant profile, with a rejection's reason)
//! and `GET /api/merchant/customers` (the merchant tool: the users registered with its invitation
//! code, their 30-day volumes and what the merchant earned from each; approved merchants only).
//! The rules are in [`super::service`].

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Query};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::service::{self, APPROVED, Form};
use crate::clock::now_ms;
use crate::entity::merchant;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Merchants: the application and the merchant tool.
    Merchant,
}

/// The member merchant calls.
pub struct MerchantsApi;

/// The application form.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MerchantForm {
    /// Business name, 1 to 128 characters.
    pub business_name: String,
    /// How to reach the business, 1 to 128 characters.
    pub contact: String,
    /// What it sells or does, 1 to 1000 characters.
    pub business: String,
    /// Countries it serves, 1 to 256 characters.
    pub countries: String,
}

/// An application or merchant profile.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct MerchantRecord {
    /// The applicant.
    pub user_id: i64,
    /// Business name.
    pub business_name: String,
    /// Contact.
    pub contact: String,
    /// What it sells or does.
    pub business: String,
    /// Countries served.
    pub countries: String,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    /// Why it was rejected.
    pub reason: Option<String>,
    /// The approved merchant's generation-1 rebate rate (a fraction of the fee after the fund).
    pub rebate_rate: Option<Decimal>,
    /// Decided, Unix milliseconds.
    pub decided_at: Option<i64>,
    /// Applied, Unix milliseconds.
    pub created_at: i64,
}

impl MerchantRecord {
    /// The record of a row.
    pub fn of(row: merchant::Model) -> Self {
        Self {
            user_id: row.user_id,
            business_name: row.business_name,
            contact: row.contact,
            business: row.business,
            countries: row.countries,
            status: row.status,
            reason: row.reason,
            rebate_rate: row
                .rebate_rate
                .and_then(|r| wasm_core::money::parse_decimal(&r).ok()),
            decided_at: row.decided_at,
            created_at: row.created_at,
        }
    }
}

/// The user's merchant state.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct MyMerchant {
    /// 2 for an approved merchant, 1 otherwise.
    pub is_merchant: i32,
    /// The application or profile (absent: never applied).
    pub application: Option<MerchantRecord>,
}

/// What a merchant earned from one customer, in one coin.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct MerchantCoinAmount {
    /// Coin, lower case.
    pub coin: String,
    /// Amount.
    pub amount: Decimal,
}

/// One customer.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CustomerRecord {
    /// The customer's masked account.
    pub account: String,
    /// Registered, Unix milliseconds.
    pub registered_at: i64,
    /// 30-day trading volume in USDT (as of the last tier computation).
    pub volume_usdt: Decimal,
    /// Generation-1 rebates the merchant was paid from the customer's fees, per coin.
    pub rebates: Vec<MerchantCoinAmount>,
}

/// A page of customers.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct CustomerPage {
    /// Customers over all pages.
    pub total: u64,
    /// This page, newest first.
    pub records: Vec<CustomerRecord>,
}

#[OpenApi(tag = "ApiTags::Merchant")]
impl MerchantsApi {
    /// Applies to become a merchant (or again after a rejection): `merchant_form_invalid` for an
    /// empty or too long field, `merchant_application_open` (409) while an application is pending
    /// or the user is a merchant.
    #[oai(
        path = "/api/merchant/apply",
        method = "post",
        operation_id = "merchantApply"
    )]
    async fn apply(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<MerchantForm>,
    ) -> MemberResponse<MerchantRecord> {
        let body = body.0;
        let form = Form {
            business_name: body.business_name,
            contact: body.contact,
            business: body.business,
            countries: body.countries,
        };
        let result = service::apply(db, auth.0.user.id, &form, now_ms())
            .await
            .map(MerchantRecord::of);
        MemberResponse::of(result, Msg::MerchantApplied)
    }

    /// The user's application or merchant profile (a rejection carries its reason).
    #[oai(
        path = "/api/merchant/mine",
        method = "get",
        operation_id = "myMerchant"
    )]
    async fn mine(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<MyMerchant> {
        let result = async {
            let row = service::find(db, auth.0.user.id).await?;
            Ok::<_, Refusal>(MyMerchant {
                is_merchant: if row.as_ref().is_some_and(|r| r.status == APPROVED) {
                    service::IS_MERCHANT
                } else {
                    1
                },
                application: row.map(MerchantRecord::of),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The merchant's customers (users registered with its invitation code), newest first, with
    /// their 30-day volumes and the rebates paid from their fees (`not_a_merchant`, 404, unless the
    /// user is an approved merchant).
    #[oai(
        path = "/api/merchant/customers",
        method = "get",
        operation_id = "merchantCustomers"
    )]
    async fn customers(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Page, 1 to 1,000,000 (default 1).
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Customers per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<CustomerPage> {
        let result = async {
            let me = auth.0.user.id;
            if service::find(db, me)
                .await?
                .is_none_or(|r| r.status != APPROVED)
            {
                return Err(Refusal::not_found(Msg::NotAMerchant));
            }
            let (total, rows) =
                service::customers(db, me, Paging::new(page.0, page_size.0)).await?;
            Ok(CustomerPage {
                total,
                records: rows
                    .into_iter()
                    .map(|c| CustomerRecord {
                        account: c.account,
                        registered_at: c.registered_at,
                        volume_usdt: c.volume_usdt,
                        rebates: c
                            .rebates
                            .into_iter()
                            .map(|(coin, amount)| MerchantCoinAmount {
                                coin,
                                amount: amount.normalize(),
                            })
                            .collect(),
                    })
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
