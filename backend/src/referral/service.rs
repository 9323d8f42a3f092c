//! The reward centre's figures, from the rebate rows and the tree: the totals and today's reward per
//! coin, the members of each generation (masked account, registration time, trading value, what
//! they earned the reader) and the statement, each line down to its fill. Amounts are summed
//! exactly in `Decimal` from the stored strings.

use std::collections::{BTreeMap, HashMap};

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DbErr, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, sea_query::ExprTrait,
};

use crate::clock::DAY_MS;
use crate::entity::{futures_order, referral_ancestor, referral_rebate, spot_trade, user};
use crate::paging::Paging;

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

/// An account as another user may see it: `ab***@example.com`, `+861***89`.
pub fn mask_account(user: &user::Model) -> String {
    if let Some(email) = &user.email {
        let (local, domain) = email.split_once('@').unwrap_or((email, ""));
        let head: String = local.chars().take(2).collect();
        return format!("{head}***@{domain}");
    }
    let phone = user.phone.clone().unwrap_or_default();
    let chars: Vec<char> = phone.chars().collect();
    if chars.len() <= 6 {
        return "***".to_owned();
    }
    let head: String = chars[..4].iter().collect();
    let tail: String = chars[chars.len() - 2..].iter().collect();
    format!("{head}***{tail}")
}

/// Amounts per coin (lower case), in coin order.
pub type PerCoin = BTreeMap<String, Decimal>;

/// The reward totals of a beneficiary.
#[derive(Debug, Clone, Default)]
pub struct Totals {
    /// Everything paid, per coin.
    pub total: PerCoin,
    /// Paid since the start of the UTC day, per coin.
    pub today: PerCoin,
    /// Members of generations 1, 2 and 3.
    pub members: [u64; 3],
}

/// `user_id`'s totals at `now`.
pub async fn totals(db: &impl ConnectionTrait, user_id: i64, now: i64) -> Result<Totals, DbErr> {
    let day_start = now - now.rem_euclid(DAY_MS);
    let rows: Vec<(String, String, i64)> = referral_rebate::Entity::find()
        .select_only()
        .column(referral_rebate::Column::Coin)
        .column(referral_rebate::Column::Amount)
        .column(referral_rebate::Column::CreatedAt)
        .filter(referral_rebate::Column::BeneficiaryId.eq(user_id))
        .filter(referral_rebate::Column::WithheldReason.is_null())
        .into_tuple()
        .all(db)
        .await?;
    let mut totals = Totals::default();
    for (coin, amount, at) in rows {
        let amount = dec(&amount);
        *totals.total.entry(coin.clone()).or_default() += amount;
        if at >= day_start {
            *totals.today.entry(coin).or_default() += amount;
        }
    }
    for generation in 1..=3 {
        totals.members[generation as usize - 1] = referral_ancestor::Entity::find()
            .filter(referral_ancestor::Column::AncestorId.eq(user_id))
            .filter(referral_ancestor::Column::Generation.eq(generation))
            .count(db)
            .await?;
    }
    Ok(totals)
}

/// A member of a reader's tree.
#[derive(Debug, Clone)]
pub struct Member {
    /// The member's id.
    pub user_id: i64,
    /// 1, 2 or 3.
    pub generation: i32,
    /// The masked account.
    pub account: String,
    /// Registration, Unix milliseconds.
    pub registered_at: i64,
    /// Spot value traded (quote coin, USDT for every listed pair) plus futures value executed.
    pub trading_value: Decimal,
    /// What the member's fees paid the reader, per coin.
    pub rebates: PerCoin,
}

/// A page of members.
#[derive(Debug, Clone)]
pub struct MemberPage {
    /// Members over all pages.
    pub total: u64,
    /// This page, newest first.
    pub records: Vec<Member>,
}

/// Spot value (quote) plus futures value `user_id` traded.
pub async fn trading_value(db: &impl ConnectionTrait, user_id: i64) -> Result<Decimal, DbErr> {
    let spot: Vec<String> = spot_trade::Entity::find()
        .select_only()
        .column(spot_trade::Column::Amount)
        .filter(
            spot_trade::Column::TakerUserId
                .eq(user_id)
                .or(spot_trade::Column::MakerUserId.eq(user_id)),
        )
        .into_tuple()
        .all(db)
        .await?;
    let futures: Vec<String> = futures_order::Entity::find()
        .select_only()
        .column(futures_order::Column::FilledValue)
        .filter(futures_order::Column::UserId.eq(user_id))
        .into_tuple()
        .all(db)
        .await?;
    Ok(spot.iter().chain(&futures).map(|v| dec(v)).sum())
}

/// The members of `user_id`'s tree, of one generation or all three, newest first.
pub async fn members(
    db: &impl ConnectionTrait,
    user_id: i64,
    generation: Option<i32>,
    paging: Paging,
) -> Result<MemberPage, DbErr> {
    let mut query =
        referral_ancestor::Entity::find().filter(referral_ancestor::Column::AncestorId.eq(user_id));
    if let Some(generation) = generation {
        query = query.filter(referral_ancestor::Column::Generation.eq(generation));
    }
    let paginator = query
        .order_by_desc(referral_ancestor::Column::Id)
        .paginate(db, paging.page_size);
    let total = paginator.num_items().await?;
    let links = paginator.fetch_page(paging.page - 1).await?;
    let users: HashMap<i64, user::Model> = user::Entity::find()
        .filter(user::Column::Id.is_in(links.iter().map(|l| l.user_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, u))
        .collect();
    let mut records = Vec::with_capacity(links.len());
    for link in links {
        let Some(member) = users.get(&link.user_id) else {
            continue;
        };
        let earned: Vec<(String, String)> = referral_rebate::Entity::find()
            .select_only()
            .column(referral_rebate::Column::Coin)
            .column(referral_rebate::Column::Amount)
            .filter(referral_rebate::Column::BeneficiaryId.eq(user_id))
            .filter(referral_rebate::Column::PayerId.eq(member.id))
            .filter(referral_rebate::Column::WithheldReason.is_null())
            .into_tuple()
            .all(db)
            .await?;
        let mut rebates = PerCoin::new();
        for (coin, amount) in earned {
            *rebates.entry(coin).or_default() += dec(&amount);
        }
        records.push(Member {
            user_id: member.id,
            generation: link.generation,
            account: mask_account(member),
            registered_at: member.created_at,
            trading_value: trading_value(db, member.id).await?,
            rebates,
        });
    }
    Ok(MemberPage { total, records })
}

/// Which statement lines to list.
#[derive(Debug, Clone, Copy, Default)]
pub struct StatementFilter {
    /// Only the lines a batch entry paid.
    pub entry_id: Option<i64>,
    /// Only one generation.
    pub generation: Option<i32>,
}

/// A page of statement lines, with the payers' masked accounts.
#[derive(Debug, Clone)]
pub struct StatementPage {
    /// Lines over all pages.
    pub total: u64,
    /// This page, newest first, each with its payer's masked account.
    pub records: Vec<(referral_rebate::Model, String)>,
}

/// `user_id`'s statement: every rebate paid or withheld, newest first.
pub async fn statement(
    db: &impl ConnectionTrait,
    user_id: i64,
    filter: StatementFilter,
    paging: Paging,
) -> Result<StatementPage, DbErr> {
    let mut query =
        referral_rebate::Entity::find().filter(referral_rebate::Column::BeneficiaryId.eq(user_id));
    if let Some(entry_id) = filter.entry_id {
        query = query.filter(referral_rebate::Column::EntryId.eq(entry_id));
    }
    if let Some(generation) = filter.generation {
        query = query.filter(referral_rebate::Column::Generation.eq(generation));
    }
    let paginator = query
        .order_by_desc(referral_rebate::Column::Id)
        .paginate(db, paging.page_size);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(paging.page - 1).await?;
    let payers: HashMap<i64, String> = user::Entity::find()
        .filter(user::Column::Id.is_in(rows.iter().map(|r| r.payer_id)))
        .all(db)
        .await?
        .into_iter()
        .map(|u| (u.id, mask_account(&u)))
        .collect();
    Ok(StatementPage {
        total,
        records: rows
            .into_iter()
            .map(|row| {
                let payer = payers.get(&row.payer_id).cloned().unwrap_or_default();
                (row, payer)
            })
            .collect(),
    })
}
