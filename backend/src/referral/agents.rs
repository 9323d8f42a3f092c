//! Agents: users an operator gave generation rates of their own, which replace the configured
//! rates for what they earn from their descendants (the batch reads them per ancestor). Setting
//! the rates again changes them; rebates already recorded keep the rate they were paid at.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, sea_query::OnConflict,
};

use crate::entity::{referral_agent, user};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;

/// An agent's rates, generation 1 first.
pub fn rates_of(agent: &referral_agent::Model) -> [Decimal; 3] {
    [&agent.gen1_rate, &agent.gen2_rate, &agent.gen3_rate]
        .map(|r| wasm_core::money::parse_decimal(r).unwrap_or_default())
}

/// `user_id`'s agent row, if it is an agent.
pub async fn find(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Option<referral_agent::Model>, DbErr> {
    referral_agent::Entity::find_by_id(user_id).one(db).await
}

/// Makes `user_id` an agent with `rates` (or changes its rates): each at least 0, together below
/// 1 (`agent_rates_invalid`); the user must exist (`not_found`).
pub async fn set(
    db: &impl ConnectionTrait,
    operator: i64,
    user_id: i64,
    rates: [Decimal; 3],
    now: i64,
) -> Result<referral_agent::Model, Refusal> {
    crate::config::check_rates(&rates)
        .map_err(|_| Refusal::invalid(Msg::AgentRatesInvalid).with_field("rates"))?;
    if user::Entity::find_by_id(user_id).one(db).await?.is_none() {
        return Err(Refusal::not_found(Msg::NotFound).with_field("userId"));
    }
    let [gen1, gen2, gen3] = rates.map(|r| r.normalize().to_string());
    referral_agent::Entity::insert(referral_agent::ActiveModel {
        user_id: Set(user_id),
        gen1_rate: Set(gen1),
        gen2_rate: Set(gen2),
        gen3_rate: Set(gen3),
        created_by: Set(operator),
        created_at: Set(now),
        updated_at: Set(now),
    })
    .on_conflict(
        OnConflict::column(referral_agent::Column::UserId)
            .update_columns([
                referral_agent::Column::Gen1Rate,
                referral_agent::Column::Gen2Rate,
                referral_agent::Column::Gen3Rate,
                referral_agent::Column::CreatedBy,
                referral_agent::Column::UpdatedAt,
            ])
            .to_owned(),
    )
    .exec(db)
    .await?;
    find(db, user_id)
        .await?
        .ok_or_else(|| Refusal::internal("agent row missing after upsert"))
}

/// Ends `user_id`'s agency: its descendants' rebates use the configured rates again
/// (`not_an_agent` when it was none).
pub async fn remove(db: &impl ConnectionTrait, user_id: i64) -> Result<(), Refusal> {
    let removed = referral_agent::Entity::delete_by_id(user_id)
        .exec(db)
        .await?;
    if removed.rows_affected == 0 {
        return Err(Refusal::not_found(Msg::NotAnAgent));
    }
    Ok(())
}

/// A page of agents, most recently changed first, and their total.
pub async fn list(
    db: &impl ConnectionTrait,
    paging: Paging,
) -> Result<(u64, Vec<referral_agent::Model>), DbErr> {
    let paginator = referral_agent::Entity::find()
        .order_by_desc(referral_agent::Column::UpdatedAt)
        .order_by_desc(referral_agent::Column::UserId)
        .paginate(db, paging.page_size);
    let total = paginator.num_items().await?;
    Ok((total, paginator.fetch_page(paging.page - 1).await?))
}

/// Whether `user_id` is an agent.
pub async fn is_agent(db: &impl ConnectionTrait, user_id: i64) -> Result<bool, DbErr> {
    Ok(referral_agent::Entity::find()
        .filter(referral_agent::Column::UserId.eq(user_id))
        .count(db)
        .await?
        > 0)
}
