//! Loan products: the form an operator fills in (checked here), storing and changing it, and
//! reading what a product offers. A product change applies to applications decided afterwards;
//! running loans keep the terms frozen at their approval.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter,
    QueryOrder,
};
use wasm_core::loan::{INSTALMENT_PERIOD_DAYS, MAX_CYCLE_DAYS, MAX_SCALE, RepayWay};

use super::decimal;
use crate::clock::now_ms;
use crate::entity::loan_product;
use crate::i18n::{Lang, Msg};
use crate::refusal::Refusal;

/// The stored status of a product offered.
pub const ON: &str = "on";
/// The stored status of a product withdrawn (no new applications; pending ones may still be
/// decided).
pub const OFF: &str = "off";

/// A product as an operator fills it in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductForm {
    /// The coin lent (any case).
    pub coin: String,
    /// The decimals of amounts, 0 to 18.
    pub scale: u32,
    /// Smallest amount, above zero.
    pub min_amount: Decimal,
    /// Largest amount, at least the smallest.
    pub max_amount: Decimal,
    /// Cycles offered, in days (1 to 365 each; multiples of 30 when `equal_instalments` is offered).
    pub cycles: Vec<u32>,
    /// Interest per loan day, above 0 and below 1.
    pub day_rate: Decimal,
    /// Repayment ways offered (`t_repay_type` values), at least one.
    pub repay_ways: Vec<String>,
    /// The lending institution shown to users, 1 to 128 characters.
    pub institution: String,
    /// Penalty per day begun after the grace days, 0 up to 1.
    pub penalty_day_rate: Decimal,
    /// Days after a due time without a penalty, 0 to 365.
    pub grace_days: u32,
    /// The lowest credit score that may apply, 0 to 1000.
    pub min_credit_score: u32,
    /// The identity level required: 0 none, 1 basic, 2 advanced.
    pub kyc_level: u32,
    /// Name per language code; English (`en`) required, 1 to 100 characters each.
    pub names: BTreeMap<String, String>,
    /// Whether it is offered.
    pub enabled: bool,
}

fn invalid(field: &str) -> Refusal {
    Refusal::invalid(Msg::InvalidField).with_field(field)
}

/// Checks `form`; the first field at fault is refused (`invalid_field`).
pub fn check(form: &ProductForm) -> Result<(), Refusal> {
    let coin = form.coin.to_ascii_lowercase();
    if coin.is_empty()
        || coin.len() > 16
        || !coin
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        return Err(invalid("coin"));
    }
    if form.scale > MAX_SCALE {
        return Err(invalid("scale"));
    }
    let fits = |amount: Decimal| amount > Decimal::ZERO && amount.normalize().scale() <= form.scale;
    if !fits(form.min_amount) {
        return Err(invalid("minAmount"));
    }
    if !fits(form.max_amount) || form.max_amount < form.min_amount {
        return Err(invalid("maxAmount"));
    }
    let mut ways = Vec::new();
    for way in &form.repay_ways {
        let way = way.parse::<RepayWay>().map_err(|_| invalid("repayWays"))?;
        if ways.contains(&way) {
            return Err(invalid("repayWays"));
        }
        ways.push(way);
    }
    if ways.is_empty() {
        return Err(invalid("repayWays"));
    }
    let mut cycles = form.cycles.clone();
    cycles.sort_unstable();
    cycles.dedup();
    let instalments = ways.contains(&RepayWay::EqualInstalments);
    if cycles.is_empty()
        || cycles.len() != form.cycles.len()
        || cycles.len() > 16
        || cycles.iter().any(|&c| {
            !(1..=MAX_CYCLE_DAYS).contains(&c)
                || (instalments && !c.is_multiple_of(INSTALMENT_PERIOD_DAYS))
        })
    {
        return Err(invalid("cycles"));
    }
    if form.day_rate <= Decimal::ZERO || form.day_rate >= Decimal::ONE {
        return Err(invalid("dayRate"));
    }
    if form.penalty_day_rate.is_sign_negative() || form.penalty_day_rate >= Decimal::ONE {
        return Err(invalid("penaltyDayRate"));
    }
    let institution = form.institution.trim();
    if institution.is_empty() || institution.chars().count() > 128 {
        return Err(invalid("institution"));
    }
    if form.grace_days > MAX_CYCLE_DAYS {
        return Err(invalid("graceDays"));
    }
    if form.min_credit_score > 1000 {
        return Err(invalid("minCreditScore"));
    }
    if form.kyc_level > 2 {
        return Err(invalid("kycLevel"));
    }
    if !form.names.contains_key("en")
        || form.names.iter().any(|(code, name)| {
            Lang::parse(code).map(Lang::code) != Some(code.as_str())
                || name.trim().is_empty()
                || name.chars().count() > 100
        })
    {
        return Err(invalid("names"));
    }
    Ok(())
}

fn join<T: ToString>(values: &[T]) -> String {
    values
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

fn active(form: &ProductForm, now: i64) -> loan_product::ActiveModel {
    let mut cycles = form.cycles.clone();
    cycles.sort_unstable();
    let names: BTreeMap<&str, &str> = form
        .names
        .iter()
        .map(|(code, name)| (code.as_str(), name.trim()))
        .collect();
    loan_product::ActiveModel {
        coin: Set(form.coin.to_ascii_lowercase()),
        scale: Set(form.scale as i32),
        min_amount: Set(form.min_amount.normalize().to_string()),
        max_amount: Set(form.max_amount.normalize().to_string()),
        cycles: Set(join(&cycles)),
        day_rate: Set(form.day_rate.normalize().to_string()),
        repay_ways: Set(join(&form.repay_ways)),
        institution: Set(form.institution.trim().to_owned()),
        penalty_day_rate: Set(form.penalty_day_rate.normalize().to_string()),
        grace_days: Set(form.grace_days as i32),
        min_credit_score: Set(form.min_credit_score as i32),
        kyc_level: Set(form.kyc_level as i32),
        names: Set(serde_json::to_string(&names).unwrap_or_default()),
        status: Set(if form.enabled { ON } else { OFF }.to_owned()),
        updated_at: Set(now),
        ..Default::default()
    }
}

/// Stores a new product after [`check`].
pub async fn create(
    db: &impl ConnectionTrait,
    form: &ProductForm,
) -> Result<loan_product::Model, Refusal> {
    check(form)?;
    let now = now_ms();
    let mut row = active(form, now);
    row.created_at = Set(now);
    Ok(row.insert(db).await?)
}

/// Replaces product `id`'s settings after [`check`] (404 when there is none). Running loans keep
/// their terms.
pub async fn update(
    db: &impl ConnectionTrait,
    id: i64,
    form: &ProductForm,
) -> Result<loan_product::Model, Refusal> {
    check(form)?;
    let existing = find(db, id).await?;
    let mut row = active(form, now_ms());
    row.id = Set(existing.id);
    row.created_at = Set(existing.created_at);
    Ok(row.update(db).await?)
}

/// Product `id`, or 404 (`productId`).
pub async fn find(db: &impl ConnectionTrait, id: i64) -> Result<loan_product::Model, Refusal> {
    loan_product::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field("productId"))
}

/// Every product (offered ones only when `only_on`), oldest first.
pub async fn list(
    db: &impl ConnectionTrait,
    only_on: bool,
) -> Result<Vec<loan_product::Model>, Refusal> {
    let mut query = loan_product::Entity::find().order_by_asc(loan_product::Column::Id);
    if only_on {
        query = query.filter(loan_product::Column::Status.eq(ON));
    }
    Ok(query.all(db).await?)
}

/// A stored product read back as figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offer {
    /// Smallest amount.
    pub min_amount: Decimal,
    /// Largest amount (before the credit score's limit).
    pub max_amount: Decimal,
    /// Cycles in days, ascending.
    pub cycles: Vec<u32>,
    /// Interest per loan day.
    pub day_rate: Decimal,
    /// Ways offered.
    pub repay_ways: Vec<RepayWay>,
    /// Penalty per day begun after the grace days.
    pub penalty_day_rate: Decimal,
}

/// The figures of `row`.
pub fn offer(row: &loan_product::Model) -> Result<Offer, Refusal> {
    Ok(Offer {
        min_amount: decimal(&row.min_amount)?,
        max_amount: decimal(&row.max_amount)?,
        cycles: row
            .cycles
            .split(',')
            .filter_map(|c| c.parse().ok())
            .collect(),
        day_rate: decimal(&row.day_rate)?,
        repay_ways: row
            .repay_ways
            .split(',')
            .filter_map(|w| w.parse().ok())
            .collect(),
        penalty_day_rate: decimal(&row.penalty_day_rate)?,
    })
}

/// The product's name in `lang` (English when it has none in it).
pub fn name_in(row: &loan_product::Model, lang: Lang) -> String {
    let names: BTreeMap<String, String> = serde_json::from_str(&row.names).unwrap_or_default();
    names
        .get(lang.code())
        .or_else(|| names.get("en"))
        .cloned()
        .unwrap_or_default()
}

/// Every stored name (`{"en": …}`).
pub fn names(row: &loan_product::Model) -> BTreeMap<String, String> {
    serde_json::from_str(&row.names).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    pub(crate) fn form() -> ProductForm {
        ProductForm {
            coin: "USDT".into(),
            scale: 2,
            min_amount: dec!(100),
            max_amount: dec!(10000),
            cycles: vec![30, 60],
            day_rate: dec!(0.0005),
            repay_ways: vec!["maturity".into(), "equal_instalments".into()],
            institution: "Kestrel Lending".into(),
            penalty_day_rate: dec!(0.0015),
            grace_days: 3,
            min_credit_score: 0,
            kyc_level: 0,
            names: [("en".to_owned(), "Quick loan".to_owned())].into(),
            enabled: true,
        }
    }

    #[test]
    fn a_good_form_passes_and_each_bad_field_is_named() {
        assert_eq!(check(&form()), Ok(()));
        let field = |change: fn(&mut ProductForm)| {
            let mut bad = form();
            change(&mut bad);
            check(&bad).unwrap_err().field.unwrap()
        };
        assert_eq!(field(|f| f.coin = "US DT".into()), "coin");
        assert_eq!(field(|f| f.min_amount = dec!(0)), "minAmount");
        assert_eq!(field(|f| f.min_amount = dec!(1.001)), "minAmount");
        assert_eq!(field(|f| f.max_amount = dec!(50)), "maxAmount");
        assert_eq!(field(|f| f.cycles = vec![30, 45]), "cycles");
        assert_eq!(field(|f| f.cycles = vec![30, 30]), "cycles");
        assert_eq!(field(|f| f.cycles = vec![]), "cycles");
        assert_eq!(field(|f| f.day_rate = dec!(0)), "dayRate");
        assert_eq!(field(|f| f.repay_ways = vec!["weekly".into()]), "repayWays");
        assert_eq!(field(|f| f.penalty_day_rate = dec!(1)), "penaltyDayRate");
        assert_eq!(field(|f| f.institution = " ".into()), "institution");
        assert_eq!(field(|f| f.grace_days = 366), "graceDays");
        assert_eq!(field(|f| f.kyc_level = 3), "kycLevel");
        assert_eq!(field(|f| f.names = BTreeMap::new()), "names");
        assert_eq!(
            field(|f| {
                f.names.insert("xx".into(), "?".into());
            }),
            "names"
        );
    }
}
