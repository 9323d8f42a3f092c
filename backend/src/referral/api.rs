//! HTTP of the reward centre and the agent calls (member area): `GET /api/referral/summary` (code,
//! link, totals, today's reward), `GET /api/referral/members` (the three generations),
//! `GET /api/referral/statement` (every rebate down to its fill), `POST /api/referral/bind` (an
//! invitation code after registration), and `POST /api/agentActivityInfo/getAgentInfo` and
//! `getAgentList` (agent management, shown to every user: an agent sees its own rates). The rules
//! are in [`super::service`], [`super::agents`] and `user::invitation`.

use poem::web::Data;
use poem_openapi::{Enum, Object, OpenApi, Tags, param::Query};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;
use std::sync::Arc;

use super::service::{self, PerCoin, StatementFilter};
use super::{agents, rates::REBATE_SCALE};
use crate::clock::now_ms;
use crate::config::Config;
use crate::entity::referral_rebate;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::{Satoken, invitation};

#[derive(Tags)]
enum ApiTags {
    /// The referral programme: reward centre and agents.
    Referral,
}

/// The reward centre and agent calls.
pub struct ReferralApi;

/// An amount of one coin.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct CoinAmount {
    /// The coin, lower case.
    pub coin: String,
    /// The amount.
    pub amount: Decimal,
}

fn coin_amounts(per_coin: PerCoin) -> Vec<CoinAmount> {
    per_coin
        .into_iter()
        .map(|(coin, amount)| CoinAmount {
            coin,
            amount: amount.normalize(),
        })
        .collect()
}

/// The reward centre's head: the reader's code and link, what they earned, their tree's size.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct ReferralSummary {
    /// The reader's invitation code.
    pub invite_code: String,
    /// The invitation link's path (`/i&CODE`); the client prefixes its origin, and the QR code is
    /// that absolute link.
    pub promote_link: String,
    /// Who invited the reader.
    pub invited_by: Option<i64>,
    /// Until when (Unix milliseconds) the reader may still bind an invitation code, if they have
    /// none and have not traded (the server checks the trade when binding).
    pub bind_until: Option<i64>,
    /// Whether the reader is an agent (rates of their own).
    pub is_agent: bool,
    /// The reader's share of each generation's fees after the security fund (fractions,
    /// generation 1 first).
    pub rates: Vec<Decimal>,
    /// Everything paid to the reader, per coin.
    pub total_reward: Vec<CoinAmount>,
    /// Paid since 00:00 UTC, per coin.
    pub today_earn_reward: Vec<CoinAmount>,
    /// Members of generations 1, 2 and 3.
    pub members: Vec<u64>,
}

/// A member of the reader's tree.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ReferralMember {
    /// The member's id.
    pub user_id: i64,
    /// 1, 2 or 3.
    pub generation: i32,
    /// The member's account, masked.
    pub account: String,
    /// Registration, Unix milliseconds.
    pub regis_time: i64,
    /// Spot value traded (quote coin, USDT for every listed pair) plus futures value executed.
    pub totol_invest_value: Decimal,
    /// What the member's fees have paid the reader, per coin.
    pub rebate_amount: Vec<CoinAmount>,
}

/// A page of members, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct ReferralMemberPage {
    /// Members over all pages.
    pub total: u64,
    /// This page.
    pub records: Vec<ReferralMember>,
}

/// Whether a rebate was paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum RebateStatus {
    /// Paid to the funding wallet.
    Paid,
    /// Not paid; `withheldReason` says why.
    Withheld,
}

/// Why a rebate was withheld.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "snake_case")]
pub enum WithheldReason {
    /// The fill's fee was zero.
    ZeroFee,
    /// The member has not passed identity verification.
    NotVerified,
    /// The member and the reader logged in from the same IP address.
    SameAddress,
}

/// One statement line: a rebate and the fee event behind it. `amount` is `feeAfterFund × rate`
/// rounded down to 8 decimals (less if the generations before took the rest of the fee).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct RebateLine {
    /// Line id.
    pub id: i64,
    /// `spot` or `futures`.
    pub source: String,
    /// The fill: a spot trade's id, or a futures fill's journal entry id.
    pub fill_id: i64,
    /// When the fill happened, Unix milliseconds.
    pub fill_time: i64,
    /// The pair or contract.
    pub symbol: String,
    /// The member who paid the fee (masked).
    pub member: String,
    /// The member's generation below the reader.
    pub generation: i32,
    /// The fee's coin.
    pub coin: String,
    /// The fee the member paid.
    pub fee: Decimal,
    /// The fee less the security fund's share.
    pub fee_after_fund: Decimal,
    /// The reader's share of `feeAfterFund` (a fraction).
    pub rate: Decimal,
    /// What was paid (0 when withheld).
    pub amount: Decimal,
    /// Paid or withheld.
    pub status: RebateStatus,
    /// Why it was withheld.
    pub withheld_reason: Option<WithheldReason>,
    /// The batch's journal entry that paid it (the bill of kind `referral_rebate`).
    pub entry_id: Option<i64>,
    /// When the batch recorded it, Unix milliseconds.
    pub created_at: i64,
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

fn line(row: referral_rebate::Model, member: String) -> RebateLine {
    let reason = match row.withheld_reason.as_deref() {
        Some("zero_fee") => Some(WithheldReason::ZeroFee),
        Some("not_verified") => Some(WithheldReason::NotVerified),
        Some("same_address") => Some(WithheldReason::SameAddress),
        _ => None,
    };
    RebateLine {
        id: row.id,
        source: row.source,
        fill_id: row.fill_id,
        fill_time: row.fill_time,
        symbol: row.symbol,
        member,
        generation: row.generation,
        coin: row.coin,
        fee: dec(&row.fee),
        fee_after_fund: dec(&row.fee_after_fund),
        rate: dec(&row.rate),
        amount: dec(&row.amount),
        status: if row.withheld_reason.is_some() {
            RebateStatus::Withheld
        } else {
            RebateStatus::Paid
        },
        withheld_reason: reason,
        entry_id: row.entry_id,
        created_at: row.created_at,
    }
}

/// A page of statement lines, newest first.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct RebateStatementPage {
    /// Lines over all pages.
    pub total: u64,
    /// Decimals every amount keeps (rounded down).
    pub scale: u32,
    /// This page.
    pub records: Vec<RebateLine>,
}

/// An invitation code to bind.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BindRequest {
    /// The inviter's code (case-insensitive).
    #[oai(validator(max_length = 32))]
    pub invite_code: String,
}

/// The inviter bound.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct BindResult {
    /// The inviter's id.
    pub inviter_id: i64,
}

/// Agent management: the reader's programme as an agent (or as any member).
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AgentInfo {
    /// Whether the reader is an agent.
    pub is_agent: bool,
    /// The reader's rates (fractions, generation 1 first): an agent's own, else the configured.
    pub rates: Vec<Decimal>,
    /// Team members of generations 1, 2 and 3.
    pub members: Vec<u64>,
    /// Commissions earned from the team, per coin.
    pub commissions: Vec<CoinAmount>,
    /// Commissions earned today (UTC), per coin.
    pub today_commissions: Vec<CoinAmount>,
}

async fn rates_for(
    db: &DatabaseConnection,
    config: &Config,
    user_id: i64,
) -> Result<(bool, Vec<Decimal>), Refusal> {
    Ok(match agents::find(db, user_id).await? {
        Some(agent) => (true, agents::rates_of(&agent).to_vec()),
        None => (false, config.referral.generation_rates.to_vec()),
    })
}

#[OpenApi(tag = "ApiTags::Referral")]
impl ReferralApi {
    /// The reward centre's head: invitation code and link, the reader's rates, everything earned and
    /// today's reward per coin, the size of each generation.
    #[oai(
        path = "/api/referral/summary",
        method = "get",
        operation_id = "referralSummary"
    )]
    async fn summary(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
    ) -> MemberResponse<ReferralSummary> {
        let me = auth.0.user;
        let result = async {
            let now = now_ms();
            let totals = service::totals(db, me.id, now).await?;
            let (is_agent, rates) = rates_for(db, config, me.id).await?;
            let bind_until =
                me.created_at + config.referral.bind_window_days * crate::clock::DAY_MS;
            Ok::<_, Refusal>(ReferralSummary {
                promote_link: format!("/i&{}", me.invite_code),
                invite_code: me.invite_code,
                invited_by: me.invited_by,
                bind_until: (me.invited_by.is_none() && bind_until > now).then_some(bind_until),
                is_agent,
                rates,
                total_reward: coin_amounts(totals.total),
                today_earn_reward: coin_amounts(totals.today),
                members: totals.members.to_vec(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The members of the reader's three generations (or one), newest first: masked account,
    /// registration time, trading value and what each has paid the reader.
    #[oai(
        path = "/api/referral/members",
        method = "get",
        operation_id = "referralMembers"
    )]
    async fn members(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only generation 1, 2 or 3; all when absent.
        #[oai(validator(minimum(value = "1"), maximum(value = "3")))]
        generation: Query<Option<i32>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Members per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<ReferralMemberPage> {
        let result = member_page(
            db,
            auth.0.user.id,
            generation.0,
            Paging::new(page.0, page_size.0),
        )
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The reader's statement, newest first: every rebate paid or withheld (with the reason), each
    /// down to its fill, fee, fee after the fund, generation and rate; optionally only the lines
    /// one batch entry paid (a `referral_rebate` bill's `entryId`) or one generation.
    #[oai(
        path = "/api/referral/statement",
        method = "get",
        operation_id = "referralStatement"
    )]
    async fn statement(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only the lines this journal entry paid.
        #[oai(name = "entryId")]
        entry_id: Query<Option<i64>>,
        /// Only generation 1, 2 or 3.
        #[oai(validator(minimum(value = "1"), maximum(value = "3")))]
        generation: Query<Option<i32>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Lines per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<RebateStatementPage> {
        let result = async {
            let found = service::statement(
                db,
                auth.0.user.id,
                StatementFilter {
                    entry_id: entry_id.0,
                    generation: generation.0,
                },
                Paging::new(page.0, page_size.0),
            )
            .await?;
            Ok::<_, Refusal>(RebateStatementPage {
                total: found.total,
                scale: REBATE_SCALE,
                records: found
                    .records
                    .into_iter()
                    .map(|(row, member)| line(row, member))
                    .collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Binds an inviter's code after registration: within the configured window (7 days by
    /// default, `invite_window_closed`), before the first trade (`invite_after_trade`), never one's
    /// own (`invite_self`), never someone the reader invited (`invite_cycle`), once
    /// (`inviter_already_bound`, 409; of two binds at once one wins).
    #[oai(
        path = "/api/referral/bind",
        method = "post",
        operation_id = "referralBind"
    )]
    async fn bind(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        body: JsonBody<BindRequest>,
    ) -> MemberResponse<BindResult> {
        let result = invitation::bind(
            db,
            &auth.0.user,
            &body.0.invite_code,
            config.referral.bind_window_days,
            now_ms(),
        )
        .await
        .map(|inviter_id| BindResult { inviter_id });
        MemberResponse::of(result, Msg::InviterBound)
    }

    /// Agent management: whether the reader is an agent, their rates, their team's size per
    /// generation and the commissions earned (total and today, per coin).
    #[oai(
        path = "/api/agentActivityInfo/getAgentInfo",
        method = "post",
        operation_id = "getAgentInfo"
    )]
    async fn agent_info(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
    ) -> MemberResponse<AgentInfo> {
        let me = auth.0.user;
        let result = async {
            let totals = service::totals(db, me.id, now_ms()).await?;
            let (is_agent, rates) = rates_for(db, config, me.id).await?;
            Ok::<_, Refusal>(AgentInfo {
                is_agent,
                rates,
                members: totals.members.to_vec(),
                commissions: coin_amounts(totals.total),
                today_commissions: coin_amounts(totals.today),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Agent management: the reader's team over the three generations (or one), newest first, with
    /// each member's trading value and the commission it brought.
    #[oai(
        path = "/api/agentActivityInfo/getAgentList",
        method = "post",
        operation_id = "getAgentList"
    )]
    async fn agent_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only generation 1, 2 or 3; all when absent.
        #[oai(validator(minimum(value = "1"), maximum(value = "3")))]
        generation: Query<Option<i32>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Members per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<ReferralMemberPage> {
        let result = member_page(
            db,
            auth.0.user.id,
            generation.0,
            Paging::new(page.0, page_size.0),
        )
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}

async fn member_page(
    db: &DatabaseConnection,
    user_id: i64,
    generation: Option<i32>,
    paging: Paging,
) -> Result<ReferralMemberPage, Refusal> {
    let found = service::members(db, user_id, generation, paging).await?;
    Ok(ReferralMemberPage {
        total: found.total,
        records: found
            .records
            .into_iter()
            .map(|m| ReferralMember {
                user_id: m.user_id,
                generation: m.generation,
                account: m.account,
                regis_time: m.registered_at,
                totol_invest_value: m.trading_value.normalize(),
                rebate_amount: coin_amounts(m.rebates),
            })
            .collect(),
    })
}
