//! API keys: a public access key and a secret shown once (only its SHA-256 is stored), a label,
//! permissions out of `read`, `trade`, `withdraw`, and an optional IP allow-list. A user has at
//! most [`MAX_API_KEYS`] live keys; deleting one marks it deleted.

use std::net::IpAddr;

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, sea_query::Expr,
};
use wasm_core::validate::Violation;

use super::reauth;
use crate::entity::api_key;
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;
use crate::user::{CurrentUser, random_token, sha256_hex};

/// Live keys per user.
pub const MAX_API_KEYS: u64 = 20;
/// Addresses per allow-list.
pub const MAX_IPS: usize = 20;
/// Longest label, in characters.
pub const MAX_LABEL_CHARS: usize = 64;
/// The permissions a key may have, in their canonical order.
pub const PERMISSIONS: [&str; 3] = ["read", "trade", "withdraw"];

/// What a new key should be.
#[derive(Debug)]
pub struct NewApiKey {
    /// The user's label (1 to 64 characters after trimming).
    pub label: String,
    /// Permission names out of [`PERMISSIONS`], at least one.
    pub permissions: Vec<String>,
    /// IP addresses the key may be used from; empty: any.
    pub ip_whitelist: Vec<String>,
}

/// A new key with its secret, which is shown this once.
#[derive(Debug)]
pub struct CreatedApiKey {
    /// Key id.
    pub id: i64,
    /// The public access key.
    pub access_key: String,
    /// The secret (only its SHA-256 is kept).
    pub secret: String,
}

/// The items of a comma-separated column (`permissions`, `ip_whitelist`).
pub fn split_list(text: &str) -> Vec<String> {
    text.split(',')
        .map(str::trim)
        .filter(|item| !item.is_empty())
        .map(str::to_owned)
        .collect()
}

/// At most 64 characters of a user's value, for an error message.
fn shown(value: &str) -> String {
    value.chars().take(64).collect()
}

/// A label as typed: trimmed, 1 to [`MAX_LABEL_CHARS`] characters.
pub fn check_label(raw: &str) -> Result<&str, Refusal> {
    let label = raw.trim();
    if label.is_empty() {
        return Err(Refusal::rule("label", &Violation::Required));
    }
    if label.chars().count() > MAX_LABEL_CHARS {
        return Err(Refusal::rule(
            "label",
            &Violation::TooLong {
                max: MAX_LABEL_CHARS as u32,
            },
        ));
    }
    Ok(label)
}

/// The permissions asked for, without duplicates, in canonical order; at least one, each one of
/// [`PERMISSIONS`] (else [`Msg::InvalidPermission`] naming it).
pub fn parse_permissions(raw: &[String]) -> Result<Vec<&'static str>, Refusal> {
    for name in raw {
        if !PERMISSIONS.contains(&name.trim()) {
            return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidPermission)
                .with_field("permissions")
                .with_param("value", shown(name)));
        }
    }
    let chosen: Vec<&'static str> = PERMISSIONS
        .into_iter()
        .filter(|permission| raw.iter().any(|name| name.trim() == *permission))
        .collect();
    if chosen.is_empty() {
        return Err(Refusal::rule("permissions", &Violation::Required));
    }
    Ok(chosen)
}

/// The allow-list asked for: each an IPv4 or IPv6 address (else [`Msg::InvalidIp`] naming it),
/// normalised, without duplicates, at most [`MAX_IPS`] (else [`Msg::TooManyIps`]).
pub fn parse_ip_whitelist(raw: &[String]) -> Result<Vec<String>, Refusal> {
    let mut ips: Vec<String> = Vec::new();
    for text in raw {
        let ip: IpAddr = text.trim().parse().map_err(|_| {
            Refusal::new(RefusalKind::Invalid, Msg::InvalidIp)
                .with_field("ipWhitelist")
                .with_param("value", shown(text))
        })?;
        let ip = ip.to_string();
        if !ips.contains(&ip) {
            ips.push(ip);
        }
    }
    if ips.len() > MAX_IPS {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::TooManyIps)
            .with_field("ipWhitelist")
            .with_param("max", MAX_IPS.to_string()));
    }
    Ok(ips)
}

/// `user_id`'s live keys, newest first.
pub async fn list(db: &impl ConnectionTrait, user_id: i64) -> Result<Vec<api_key::Model>, Refusal> {
    Ok(api_key::Entity::find()
        .filter(api_key::Column::UserId.eq(user_id))
        .filter(api_key::Column::DeletedAt.is_null())
        .order_by_desc(api_key::Column::Id)
        .all(db)
        .await?)
}

/// Creates a key for `current`'s user. Needs a recent re-authentication; at most
/// [`MAX_API_KEYS`] live keys ([`Msg::ApiKeyLimit`]).
pub async fn create(
    db: &impl ConnectionTrait,
    current: &CurrentUser,
    form: NewApiKey,
) -> Result<CreatedApiKey, Refusal> {
    reauth::require(&current.session)?;
    let label = check_label(&form.label)?;
    let permissions = parse_permissions(&form.permissions)?;
    let ips = parse_ip_whitelist(&form.ip_whitelist)?;
    let live = api_key::Entity::find()
        .filter(api_key::Column::UserId.eq(current.id()))
        .filter(api_key::Column::DeletedAt.is_null())
        .count(db)
        .await?;
    if live >= MAX_API_KEYS {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::ApiKeyLimit)
            .with_param("max", MAX_API_KEYS.to_string()));
    }
    let access_key = random_token(16);
    let secret = random_token(32);
    let key = api_key::ActiveModel {
        user_id: Set(current.id()),
        label: Set(label.to_owned()),
        access_key: Set(access_key.clone()),
        secret_hash: Set(sha256_hex(&[secret.as_bytes()])),
        permissions: Set(permissions.join(",")),
        ip_whitelist: Set(ips.join(",")),
        created_at: Set(now_ms()),
        deleted_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(CreatedApiKey {
        id: key.id,
        access_key,
        secret,
    })
}

/// Deletes key `id` of `user_id`; [`Msg::NotFound`] (404) when the user has no such live key.
pub async fn delete(db: &impl ConnectionTrait, user_id: i64, id: i64) -> Result<(), Refusal> {
    let deleted = api_key::Entity::update_many()
        .col_expr(api_key::Column::DeletedAt, Expr::value(now_ms()))
        .filter(api_key::Column::Id.eq(id))
        .filter(api_key::Column::UserId.eq(user_id))
        .filter(api_key::Column::DeletedAt.is_null())
        .exec(db)
        .await?;
    if deleted.rows_affected == 1 {
        Ok(())
    } else {
        Err(Refusal::new(RefusalKind::NotFound, Msg::NotFound))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn permissions_are_known_deduplicated_and_ordered() {
        assert_eq!(
            parse_permissions(&strings(&["withdraw", "read", "read"])).unwrap(),
            vec!["read", "withdraw"]
        );
        let error = parse_permissions(&strings(&["read", "admin"])).unwrap_err();
        assert_eq!(error.msg, Msg::InvalidPermission);
        assert_eq!(error.params, vec![("value", "admin".to_owned())]);
        assert_eq!(
            parse_permissions(&[]).unwrap_err().msg,
            Msg::Rule("field_required")
        );
    }

    #[test]
    fn allow_lists_hold_up_to_20_distinct_addresses() {
        assert_eq!(
            parse_ip_whitelist(&strings(&[" 10.0.0.1", "2001:DB8::1", "10.0.0.1"])).unwrap(),
            vec!["10.0.0.1", "2001:db8::1"]
        );
        let error = parse_ip_whitelist(&strings(&["10.0.0.256"])).unwrap_err();
        assert_eq!(error.msg, Msg::InvalidIp);
        assert_eq!(error.params, vec![("value", "10.0.0.256".to_owned())]);
        let many: Vec<String> = (0..21).map(|i| format!("10.0.0.{i}")).collect();
        let error = parse_ip_whitelist(&many).unwrap_err();
        assert_eq!(error.msg, Msg::TooManyIps);
        assert!(parse_ip_whitelist(&many[..20]).is_ok());
    }

    #[test]
    fn labels_are_trimmed_and_bounded() {
        assert_eq!(check_label("  bot ").unwrap(), "bot");
        assert_eq!(
            check_label(" ").unwrap_err().msg,
            Msg::Rule("field_required")
        );
        assert!(check_label(&"x".repeat(64)).is_ok());
        assert_eq!(
            check_label(&"x".repeat(65)).unwrap_err().msg,
            Msg::Rule("too_long")
        );
    }

    #[test]
    fn stored_lists_read_back() {
        assert_eq!(split_list("read,trade"), vec!["read", "trade"]);
        assert!(split_list("").is_empty());
    }
}
