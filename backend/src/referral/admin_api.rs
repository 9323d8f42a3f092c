//! HTTP of the operator's agent calls: `POST /api/admin/referral/agent` (make a user an agent with
//! rates of its own, or change them), `POST /api/admin/referral/agent/remove` and
//! `GET /api/admin/referral/agents`. Operators only (403 otherwise). The rules are in
//! [`super::agents`].

use poem::web::Data;
use poem_openapi::{Object, OpenApi, Tags, param::Query};
use rust_decimal::Decimal;
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::agents;
use crate::clock::now_ms;
use crate::entity::referral_agent;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;
use crate::user::roles::require_operator;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: agents of the referral programme.
    AdminReferral,
}

/// The operator's agent calls.
pub struct AdminReferralApi;

/// An agent and its rates.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AgentRecord {
    /// The agent's user id.
    pub user_id: i64,
    /// Its share of each generation's fees after the security fund (fractions, generation 1
    /// first).
    pub rates: Vec<Decimal>,
    /// The operator who last set them.
    pub set_by: i64,
    /// Made an agent, Unix milliseconds.
    pub created_at: i64,
    /// Rates last changed, Unix milliseconds.
    pub updated_at: i64,
}

fn record(agent: referral_agent::Model) -> AgentRecord {
    AgentRecord {
        user_id: agent.user_id,
        rates: agents::rates_of(&agent).to_vec(),
        set_by: agent.created_by,
        created_at: agent.created_at,
        updated_at: agent.updated_at,
    }
}

/// A user to make an agent, with its rates.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentRequest {
    /// The user.
    pub user_id: i64,
    /// Three fractions, generation 1 first; each at least 0, together below 1.
    #[oai(validator(min_items = 3, max_items = 3))]
    pub rates: Vec<Decimal>,
}

/// A user whose agency ends.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AgentRemoval {
    /// The agent.
    pub user_id: i64,
}

/// A page of agents.
#[derive(Debug, Object)]
#[oai(rename_all = "camelCase")]
pub struct AgentPage {
    /// Agents over all pages.
    pub total: u64,
    /// This page, most recently changed first.
    pub records: Vec<AgentRecord>,
}

#[OpenApi(tag = "ApiTags::AdminReferral")]
impl AdminReferralApi {
    /// Makes a user an agent with rates of its own, or changes an agent's rates (operators only):
    /// they replace the configured rates for what the agent earns from its descendants' fees from
    /// the next batch on (`agent_rates_invalid` unless each is at least 0 and they add up to
    /// below 1).
    #[oai(
        path = "/api/admin/referral/agent",
        method = "post",
        operation_id = "adminSetAgent"
    )]
    async fn set_agent(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<AgentRequest>,
    ) -> MemberResponse<AgentRecord> {
        let body = body.0;
        let result = async {
            require_operator(&auth.0.user)?;
            let rates: [Decimal; 3] = body
                .rates
                .try_into()
                .map_err(|_| Refusal::invalid(Msg::AgentRatesInvalid).with_field("rates"))?;
            let agent = agents::set(db, auth.0.user.id, body.user_id, rates, now_ms()).await?;
            Ok::<_, Refusal>(record(agent))
        }
        .await;
        MemberResponse::of(result, Msg::AgentSaved)
    }

    /// Ends a user's agency (operators only): its descendants' rebates use the configured rates
    /// again (`not_an_agent`, 404, when it was none).
    #[oai(
        path = "/api/admin/referral/agent/remove",
        method = "post",
        operation_id = "adminRemoveAgent"
    )]
    async fn remove_agent(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<AgentRemoval>,
    ) -> MemberResponse<AgentRemoval> {
        let body = body.0;
        let result = async {
            require_operator(&auth.0.user)?;
            agents::remove(db, body.user_id).await?;
            Ok::<_, Refusal>(body)
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// The agents, most recently changed first (operators only).
    #[oai(
        path = "/api/admin/referral/agents",
        method = "get",
        operation_id = "adminListAgents"
    )]
    async fn list_agents(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Agents per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<AgentPage> {
        let result = async {
            require_operator(&auth.0.user)?;
            let (total, rows) = agents::list(db, Paging::new(page.0, page_size.0)).await?;
            Ok::<_, Refusal>(AgentPage {
                total,
                records: rows.into_iter().map(record).collect(),
            })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
