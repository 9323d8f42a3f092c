//! What the loan screens read: the products offered to a user with what they may borrow, their
//! applications and loans by state (bounded pages), a loan's detail (schedule with what is paid
//! and overdue and the penalty so far, documents, history), and the operators' queue of
//! applications with each applicant's score and loan history.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};

use super::credit::{self, Score};
use super::products::{self, ON};
use super::repay::penalty_of;
use super::views::InstalmentView;
use super::{ApplicationStatus, LoanStatus, PAID};
use crate::entity::{
    loan, loan_application, loan_instalment, loan_product, loan_status_history, user,
};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;

/// A product and what one user may do with it.
#[derive(Debug, Clone)]
pub struct UserOffer {
    /// The product.
    pub product: loan_product::Model,
    /// The most the user may borrow now.
    pub limit: rust_decimal::Decimal,
    /// Why the user may not apply (empty when they may).
    pub blockers: Vec<&'static str>,
}

/// The products offered, each with what `owner` (scored `score`) may borrow and why not.
pub async fn offers(
    db: &impl ConnectionTrait,
    owner: &user::Model,
    score: &Score,
) -> Result<Vec<UserOffer>, Refusal> {
    let pending: Vec<i64> = loan_application::Entity::find()
        .filter(loan_application::Column::UserId.eq(owner.id))
        .filter(loan_application::Column::Status.eq(ApplicationStatus::Pending.as_str()))
        .all(db)
        .await?
        .into_iter()
        .map(|a| a.product_id)
        .collect();
    let mut out = Vec::new();
    for product in products::list(db, true).await? {
        let offer = products::offer(&product)?;
        let limit =
            credit::amount_limit(offer.max_amount, score.score, product.scale.max(0) as u32);
        let mut blockers = Vec::new();
        if owner.kyc_level < product.kyc_level {
            blockers.push("kyc_level");
        }
        if score.score < product.min_credit_score {
            blockers.push("credit_score");
        }
        if pending.contains(&product.id) {
            blockers.push("pending_application");
        }
        if limit < offer.min_amount {
            blockers.push("amount_limit");
        }
        out.push(UserOffer {
            product,
            limit,
            blockers,
        });
    }
    Ok(out)
}

/// A page of `user_id`'s applications (of `status` when given), newest first, and the total.
pub async fn applications(
    db: &impl ConnectionTrait,
    user_id: Option<i64>,
    status: Option<&str>,
    paging: Paging,
) -> Result<(u64, Vec<loan_application::Model>), Refusal> {
    let mut query = loan_application::Entity::find();
    if let Some(user_id) = user_id {
        query = query.filter(loan_application::Column::UserId.eq(user_id));
    }
    if let Some(status) = status {
        query = query.filter(loan_application::Column::Status.eq(status));
    }
    let total = query.clone().count(db).await?;
    let rows = query
        .order_by_desc(loan_application::Column::Id)
        .paginate(db, paging.page_size)
        .fetch_page(paging.page - 1)
        .await?;
    Ok((total, rows))
}

/// A page of `user_id`'s loans (of `status` when given), newest first, each with its unpaid
/// instalments, and the total.
pub async fn loans(
    db: &impl ConnectionTrait,
    user_id: i64,
    status: Option<LoanStatus>,
    paging: Paging,
) -> Result<(u64, Vec<(loan::Model, Vec<loan_instalment::Model>)>), Refusal> {
    let mut query = loan::Entity::find().filter(loan::Column::UserId.eq(user_id));
    if let Some(status) = status {
        query = query.filter(loan::Column::Status.eq(status.as_str()));
    }
    let total = query.clone().count(db).await?;
    let rows = query
        .order_by_desc(loan::Column::Id)
        .paginate(db, paging.page_size)
        .fetch_page(paging.page - 1)
        .await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let unpaid = super::repay::unpaid(db, row.id).await?;
        out.push((row, unpaid));
    }
    Ok((total, out))
}

/// Everything a loan's detail shows.
#[derive(Debug, Clone)]
pub struct Detail {
    /// The loan.
    pub loan: loan::Model,
    /// Every instalment, in order.
    pub instalments: Vec<loan_instalment::Model>,
    /// Its application.
    pub application: loan_application::Model,
    /// Its transitions, oldest first.
    pub history: Vec<loan_status_history::Model>,
}

/// Loan `loan_id` of `user_id` (any user's for `None`: an operator) with its schedule,
/// application and history; 404 for another user's.
pub async fn detail(
    db: &impl ConnectionTrait,
    user_id: Option<i64>,
    loan_id: i64,
) -> Result<Detail, Refusal> {
    let mut query = loan::Entity::find_by_id(loan_id);
    if let Some(user_id) = user_id {
        query = query.filter(loan::Column::UserId.eq(user_id));
    }
    let row = query
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field("id"))?;
    let instalments = loan_instalment::Entity::find()
        .filter(loan_instalment::Column::LoanId.eq(row.id))
        .order_by_asc(loan_instalment::Column::Number)
        .all(db)
        .await?;
    let application = loan_application::Entity::find_by_id(row.application_id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::internal("a loan without its application"))?;
    let history = history(db, row.application_id).await?;
    Ok(Detail {
        loan: row,
        instalments,
        application,
        history,
    })
}

/// The transitions of application `application_id` (and its loan), oldest first.
pub async fn history(
    db: &impl ConnectionTrait,
    application_id: i64,
) -> Result<Vec<loan_status_history::Model>, Refusal> {
    Ok(loan_status_history::Entity::find()
        .filter(loan_status_history::Column::ApplicationId.eq(application_id))
        .order_by_asc(loan_status_history::Column::Id)
        .all(db)
        .await?)
}

/// The instalments of `row` as shown at `now`: unpaid ones with their penalty now.
pub fn instalment_views(
    row: &loan::Model,
    instalments: &[loan_instalment::Model],
    now: i64,
) -> Result<Vec<InstalmentView>, Refusal> {
    instalments
        .iter()
        .map(|i| {
            let paid = i.status == PAID;
            let (penalty, days_overdue) = if paid {
                (i.penalty.clone(), 0)
            } else {
                let now_penalty = penalty_of(row, i, now)?;
                (now_penalty.penalty.to_string(), now_penalty.days_overdue)
            };
            Ok(InstalmentView {
                number: i.number,
                due_time: i.due_time,
                principal: i.principal.clone(),
                interest: i.interest.clone(),
                amount: i.amount.clone(),
                status: if paid {
                    "paid"
                } else if i.due_time <= now {
                    "overdue"
                } else {
                    "pending"
                }
                .to_owned(),
                penalty,
                days_overdue,
                paid_amount: i.paid_amount.clone(),
                paid_at: i.paid_at,
            })
        })
        .collect()
}

/// An applicant's loan history, for the operators' review.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Record {
    /// Loans taken.
    pub loans: u64,
    /// Of those, settled.
    pub settled: u64,
    /// Of those, overdue now.
    pub overdue: u64,
    /// Applications rejected.
    pub rejected: u64,
}

/// `user_id`'s loan history.
pub async fn record_of(db: &impl ConnectionTrait, user_id: i64) -> Result<Record, Refusal> {
    let loans = loan::Entity::find()
        .filter(loan::Column::UserId.eq(user_id))
        .all(db)
        .await?;
    let rejected = loan_application::Entity::find()
        .filter(loan_application::Column::UserId.eq(user_id))
        .filter(loan_application::Column::Status.eq(ApplicationStatus::Rejected.as_str()))
        .count(db)
        .await?;
    let count = |status: LoanStatus| loans.iter().filter(|l| l.status == status.as_str()).count();
    Ok(Record {
        loans: loans.len() as u64,
        settled: count(LoanStatus::Settled) as u64,
        overdue: count(LoanStatus::Overdue) as u64,
        rejected,
    })
}

/// Whether product `id` is offered.
pub fn is_on(product: &loan_product::Model) -> bool {
    product.status == ON
}
