//! The merchant rules: the application (one row per user; a rejected applicant may apply again,
//! which reopens its row), the operator's race-safe decision, the rate and the merchant's customers.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, TransactionTrait,
    sea_query::{Expr, OnConflict},
};

use crate::entity::{merchant, referral_rebate, user, user_tier};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;

/// `pending`: waiting for an operator.
pub const PENDING: &str = "pending";
/// `approved`: the user is a merchant.
pub const APPROVED: &str = "approved";
/// `rejected`: refused, with a reason.
pub const REJECTED: &str = "rejected";
/// `user.is_merchant` of an approved merchant.
pub const IS_MERCHANT: i32 = 2;

/// What a user applies with.
#[derive(Debug, Clone)]
pub struct Form {
    /// Business name (1 to 128 characters).
    pub business_name: String,
    /// Contact (1 to 128).
    pub contact: String,
    /// What it sells or does (1 to 1000).
    pub business: String,
    /// Countries served (1 to 256).
    pub countries: String,
}

fn check_form(form: &Form) -> Result<Form, Refusal> {
    let field = |value: &str, max: usize, name: &str| {
        let value = value.trim();
        if value.is_empty() || value.chars().count() > max {
            Err(Refusal::invalid(Msg::MerchantFormInvalid).with_field(name))
        } else {
            Ok(value.to_owned())
        }
    };
    Ok(Form {
        business_name: field(&form.business_name, 128, "businessName")?,
        contact: field(&form.contact, 128, "contact")?,
        business: field(&form.business, 1000, "business")?,
        countries: field(&form.countries, 256, "countries")?,
    })
}

/// Checks a merchant rate: at least 0, below 1 (`merchant_rate_invalid`).
pub fn check_rate(rate: Decimal) -> Result<Decimal, Refusal> {
    if rate.is_sign_negative() || rate >= Decimal::ONE {
        return Err(Refusal::invalid(Msg::MerchantRateInvalid).with_field("rebateRate"));
    }
    Ok(rate.normalize())
}

/// `user_id` applies: a new row, or its rejected row reopened with the new form; an open
/// (pending) application or an approved merchant is `merchant_application_open` (409). Two
/// applications at once leave one row, pending.
pub async fn apply(
    db: &DatabaseConnection,
    user_id: i64,
    form: &Form,
    now: i64,
) -> Result<merchant::Model, Refusal> {
    let form = check_form(form)?;
    let inserted = merchant::Entity::insert(merchant::ActiveModel {
        user_id: Set(user_id),
        business_name: Set(form.business_name.clone()),
        contact: Set(form.contact.clone()),
        business: Set(form.business.clone()),
        countries: Set(form.countries.clone()),
        status: Set(PENDING.to_owned()),
        reason: Set(None),
        rebate_rate: Set(None),
        decided_by: Set(None),
        decided_at: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    })
    .on_conflict(
        OnConflict::column(merchant::Column::UserId)
            .do_nothing()
            .to_owned(),
    )
    .exec_without_returning(db)
    .await?;
    if inserted == 0 {
        let reopened = merchant::Entity::update_many()
            .col_expr(
                merchant::Column::BusinessName,
                Expr::value(form.business_name),
            )
            .col_expr(merchant::Column::Contact, Expr::value(form.contact))
            .col_expr(merchant::Column::Business, Expr::value(form.business))
            .col_expr(merchant::Column::Countries, Expr::value(form.countries))
            .col_expr(merchant::Column::Status, Expr::value(PENDING))
            .col_expr(
                merchant::Column::Reason,
                Expr::value(Option::<String>::None),
            )
            .col_expr(
                merchant::Column::DecidedBy,
                Expr::value(Option::<i64>::None),
            )
            .col_expr(
                merchant::Column::DecidedAt,
                Expr::value(Option::<i64>::None),
            )
            .col_expr(merchant::Column::CreatedAt, Expr::value(now))
            .col_expr(merchant::Column::UpdatedAt, Expr::value(now))
            .filter(merchant::Column::UserId.eq(user_id))
            .filter(merchant::Column::Status.eq(REJECTED))
            .exec(db)
            .await?;
        if reopened.rows_affected == 0 {
            return Err(Refusal::conflict(Msg::MerchantApplicationOpen));
        }
    }
    find(db, user_id)
        .await?
        .ok_or_else(|| Refusal::internal("merchant row missing after apply"))
}

/// `user_id`'s application or merchant row, if any.
pub async fn find(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Option<merchant::Model>, DbErr> {
    merchant::Entity::find_by_id(user_id).one(db).await
}

/// An operator's decision.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The applicant.
    pub user_id: i64,
    /// Approve (or reject).
    pub approve: bool,
    /// Why it was rejected (required then, 1 to 500 characters).
    pub reason: Option<String>,
    /// The approved merchant's generation-1 rate (the configured default when absent).
    pub rebate_rate: Option<Decimal>,
}

/// Decides a pending application by `operator` (an operator; checked by the caller): one
/// conditional update `pending → approved|rejected`, and on approval `user.is_merchant` = 2 in the
/// same transaction. An application decided already — before or at the same time by another
/// operator — is `merchant_decided` (409); none at all 404.
pub async fn decide(
    db: &DatabaseConnection,
    operator: i64,
    decision: &Decision,
    default_rate: Decimal,
    now: i64,
) -> Result<merchant::Model, Refusal> {
    let reason = if decision.approve {
        None
    } else {
        let reason = decision.reason.as_deref().map(str::trim).unwrap_or("");
        if reason.is_empty() || reason.chars().count() > 500 {
            return Err(Refusal::invalid(Msg::RejectReasonRequired).with_field("reason"));
        }
        Some(reason.to_owned())
    };
    let rate = if decision.approve {
        Some(check_rate(decision.rebate_rate.unwrap_or(default_rate))?.to_string())
    } else {
        None
    };
    let txn = db.begin().await?;
    let decided = merchant::Entity::update_many()
        .col_expr(
            merchant::Column::Status,
            Expr::value(if decision.approve { APPROVED } else { REJECTED }),
        )
        .col_expr(merchant::Column::Reason, Expr::value(reason))
        .col_expr(merchant::Column::RebateRate, Expr::value(rate))
        .col_expr(merchant::Column::DecidedBy, Expr::value(Some(operator)))
        .col_expr(merchant::Column::DecidedAt, Expr::value(Some(now)))
        .col_expr(merchant::Column::UpdatedAt, Expr::value(now))
        .filter(merchant::Column::UserId.eq(decision.user_id))
        .filter(merchant::Column::Status.eq(PENDING))
        .exec(&txn)
        .await?;
    if decided.rows_affected == 0 {
        return Err(match find(&txn, decision.user_id).await? {
            None => Refusal::not_found(Msg::NotFound).with_field("userId"),
            Some(_) => Refusal::conflict(Msg::MerchantDecided),
        });
    }
    if decision.approve {
        user::Entity::update_many()
            .col_expr(user::Column::IsMerchant, Expr::value(IS_MERCHANT))
            .filter(user::Column::Id.eq(decision.user_id))
            .exec(&txn)
            .await?;
    }
    let row = find(&txn, decision.user_id)
        .await?
        .ok_or_else(|| Refusal::internal("merchant row missing after decision"))?;
    txn.commit().await?;
    Ok(row)
}

/// Changes an approved merchant's rate (`not_a_merchant` otherwise); from the next batch on.
pub async fn set_rate(
    db: &DatabaseConnection,
    user_id: i64,
    rate: Decimal,
    now: i64,
) -> Result<merchant::Model, Refusal> {
    let rate = check_rate(rate)?;
    let changed = merchant::Entity::update_many()
        .col_expr(
            merchant::Column::RebateRate,
            Expr::value(Some(rate.to_string())),
        )
        .col_expr(merchant::Column::UpdatedAt, Expr::value(now))
        .filter(merchant::Column::UserId.eq(user_id))
        .filter(merchant::Column::Status.eq(APPROVED))
        .exec(db)
        .await?;
    if changed.rows_affected == 0 {
        return Err(Refusal::not_found(Msg::NotAMerchant));
    }
    find(db, user_id)
        .await?
        .ok_or_else(|| Refusal::internal("merchant row missing"))
}

/// A page of applications, optionally of one status, most recently changed first, and their total.
pub async fn list(
    db: &DatabaseConnection,
    status: Option<&str>,
    paging: Paging,
) -> Result<(u64, Vec<merchant::Model>), DbErr> {
    let mut query = merchant::Entity::find();
    if let Some(status) = status {
        query = query.filter(merchant::Column::Status.eq(status));
    }
    let paginator = query
        .order_by_desc(merchant::Column::UpdatedAt)
        .order_by_desc(merchant::Column::UserId)
        .paginate(db, paging.page_size);
    let total = paginator.num_items().await?;
    Ok((total, paginator.fetch_page(paging.page - 1).await?))
}

/// The generation-1 rate of `user_id` if it is an approved merchant with one (the referral batch
/// reads it where the ancestor is no agent).
pub async fn rate_of(db: &impl ConnectionTrait, user_id: i64) -> Result<Option<Decimal>, DbErr> {
    Ok(find(db, user_id)
        .await?
        .filter(|m| m.status == APPROVED)
        .and_then(|m| m.rebate_rate)
        .and_then(|r| wasm_core::money::parse_decimal(&r).ok()))
}

/// One customer of a merchant: a user registered with its invitation code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Customer {
    /// The customer's masked account.
    pub account: String,
    /// Registered, Unix milliseconds.
    pub registered_at: i64,
    /// Its 30-day trading volume in USDT as last computed by the tier job.
    pub volume_usdt: Decimal,
    /// What the merchant earned from its fees (generation 1, paid rebates, all coins valued as
    /// recorded: the sum of the amounts per coin).
    pub rebates: std::collections::BTreeMap<String, Decimal>,
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// A page of `merchant_id`'s customers, newest first, and their total.
pub async fn customers(
    db: &DatabaseConnection,
    merchant_id: i64,
    paging: Paging,
) -> Result<(u64, Vec<Customer>), DbErr> {
    let paginator = user::Entity::find()
        .filter(user::Column::InvitedBy.eq(merchant_id))
        .order_by_desc(user::Column::CreatedAt)
        .order_by_desc(user::Column::Id)
        .paginate(db, paging.page_size);
    let total = paginator.num_items().await?;
    let mut out = Vec::new();
    for member in paginator.fetch_page(paging.page - 1).await? {
        let volume_usdt = user_tier::Entity::find_by_id(member.id)
            .one(db)
            .await?
            .map_or(Decimal::ZERO, |t| dec(&t.volume_usdt));
        let mut rebates = std::collections::BTreeMap::new();
        for rebate in referral_rebate::Entity::find()
            .filter(referral_rebate::Column::BeneficiaryId.eq(merchant_id))
            .filter(referral_rebate::Column::PayerId.eq(member.id))
            .filter(referral_rebate::Column::Generation.eq(1))
            .filter(referral_rebate::Column::WithheldReason.is_null())
            .all(db)
            .await?
        {
            *rebates.entry(rebate.coin.clone()).or_insert(Decimal::ZERO) += dec(&rebate.amount);
        }
        out.push(Customer {
            account: crate::referral::service::mask_account(&member),
            registered_at: member.created_at,
            volume_usdt,
            rebates,
        });
    }
    Ok((total, out))
}
