//! The away e-mail: when an operator answers and no customer socket of the conversation is
//! connected, the customer (the user's login e-mail, or the visitor's) gets one e-mail in the
//! conversation's language saying that support answered, with the start of the answer. It is sent
//! once per absence: the conversation's `away_mailed` flag is set by a conditional update (two
//! answers at once send one mail) and cleared when the customer reads the conversation.

use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, sea_query::Expr};

use crate::entity::{support_conversation as conversation, support_message as message, user};
use crate::i18n::{Lang, Msg, translate};
use crate::refusal::Refusal;
use crate::user::mailer::{Channel, Mailer, Outgoing};

/// The most characters of the answer the e-mail quotes.
pub const EXCERPT_CHARS: usize = 200;

/// Sends the away e-mail for `answer` in `row` unless it was sent since the customer last read.
/// Answers whether it was sent now.
pub async fn mail_once(
    db: &DatabaseConnection,
    mailer: &std::sync::Arc<Mailer>,
    site: &str,
    row: &conversation::Model,
    answer: &message::Model,
) -> Result<bool, Refusal> {
    let (recipient, anti_code) = match (row.user_id, &row.visitor_email) {
        (Some(user_id), _) => match user::Entity::find_by_id(user_id).one(db).await? {
            Some(found) => match found.email.clone() {
                Some(email) => (email, found.anti_code.clone()),
                // A phone-only account has no address to write to.
                None => return Ok(false),
            },
            None => return Ok(false),
        },
        (None, Some(email)) => (email.clone(), None),
        (None, None) => return Ok(false),
    };
    let claimed = conversation::Entity::update_many()
        .col_expr(conversation::Column::AwayMailed, Expr::value(true))
        .filter(conversation::Column::Id.eq(row.id))
        .filter(conversation::Column::AwayMailed.eq(false))
        .exec(db)
        .await?;
    if claimed.rows_affected != 1 {
        return Ok(false);
    }
    let lang = Lang::parse(&row.lang).unwrap_or_default();
    let excerpt: String = if answer.body.is_empty() {
        "🖼".to_owned()
    } else {
        answer.body.chars().take(EXCERPT_CHARS).collect()
    };
    let outgoing = Outgoing {
        channel: Channel::Email,
        recipient,
        subject: translate(lang, Msg::SupportReplySubject, &[("site", site)]),
        body: translate(
            lang,
            Msg::SupportReplyBody,
            &[("site", site), ("excerpt", excerpt.as_str())],
        ),
        anti_code,
    };
    // Sent after the answer is stored; a mail server that is down must not refuse the answer.
    if let Err(error) = mailer.send(db, outgoing).await {
        tracing::warn!(reason = error.msg.key(), "support away e-mail not sent");
    }
    Ok(true)
}
