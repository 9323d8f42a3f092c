//! The generic form and dictionary calls of the spec (`cgform-api/getData/{form}`,
//! `cgform-api/detailData/{form}/{id}`, `sys/dict/getDictItems/{code}`) over the content store.
//! A form is a kind of entry under a stable name; a dictionary is a list of `{value, text}` in the
//! reader's language. An unknown form or dictionary is a clear 404 naming it.

use poem_openapi::Object;
use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder};

use super::store::{self, Listing, Renderer};
use super::{HELP_CATEGORIES, Kind};
use crate::entity::content_entry;
use crate::i18n::{Lang, Msg, t};
use crate::refusal::Refusal;

/// A form of `cgform-api`: which entries it reads and how its rows are filtered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// `article_category`: the article categories.
    ArticleCategory,
    /// `article_section`: sections (`parentId` = a category).
    ArticleSection,
    /// `article`: articles (`parentId` = a section).
    Article,
    /// `help_center`: help-centre entries (`category` = a help category code).
    HelpCenter,
    /// `announcement`: announcements (`topic` = a topic slug), pinned first.
    Announcement,
}

impl Form {
    /// Every form, by name.
    pub const ALL: [(&'static str, Form); 5] = [
        ("article_category", Form::ArticleCategory),
        ("article_section", Form::ArticleSection),
        ("article", Form::Article),
        ("help_center", Form::HelpCenter),
        ("announcement", Form::Announcement),
    ];

    /// The form named `name`, else 404 `unknown_form`.
    pub fn parse(name: &str) -> Result<Form, Refusal> {
        Form::ALL
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, form)| *form)
            .ok_or_else(|| {
                Refusal::not_found(Msg::UnknownForm)
                    .with_param("form", name.chars().take(64).collect::<String>())
            })
    }

    /// The kind of its entries.
    pub fn kind(self) -> Kind {
        match self {
            Form::ArticleCategory => Kind::Category,
            Form::ArticleSection => Kind::Section,
            Form::Article => Kind::Article,
            Form::HelpCenter => Kind::Help,
            Form::Announcement => Kind::Announcement,
        }
    }

    /// The listing of its rows with the caller's filters.
    pub fn listing(
        self,
        parent_id: Option<i64>,
        topic: Option<String>,
        category: Option<String>,
    ) -> Listing {
        Listing {
            kinds: vec![self.kind()],
            parent_id: parent_id.filter(|_| matches!(self, Form::ArticleSection | Form::Article)),
            topic: topic.filter(|_| self == Form::Announcement),
            category: category.filter(|_| self == Form::HelpCenter),
            pinned_first: self == Form::Announcement,
            ..Listing::default()
        }
    }
}

/// One item of a dictionary.
#[derive(Debug, Clone, Object)]
pub struct DictItem {
    /// The value a form stores or a call takes.
    pub value: String,
    /// Its name in the reader's language.
    pub text: String,
    /// The same name (the spec's client reads `title`).
    pub title: String,
}

fn item(value: impl Into<String>, text: String) -> DictItem {
    DictItem {
        value: value.into(),
        title: text.clone(),
        text,
    }
}

/// The dictionaries, by code.
pub const DICTS: [&str; 4] = [
    "announcement_topic",
    "rule_model_type",
    "help_category",
    "article_category",
];

/// The items of dictionary `code` in the reader's language, else 404 `unknown_dict`.
pub async fn dict_items(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    code: &str,
    lang: Lang,
) -> Result<Vec<DictItem>, Refusal> {
    let entries_of = |kinds: Vec<Kind>| Listing {
        kinds,
        sort: store::SortColumn::Position,
        ..Listing::default()
    };
    let all = store::Size::All;
    Ok(match code {
        "announcement_topic" => {
            store::page(db, renderer, &entries_of(vec![Kind::Topic]), all, lang)
                .await?
                .records
                .into_iter()
                .map(|r| item(r.slug, r.title))
                .collect()
        }
        "rule_model_type" => {
            let entries = content_entry::Entity::find()
                .filter(
                    content_entry::Column::Kind.is_in([Kind::Topic.as_str(), Kind::Rule.as_str()]),
                )
                .order_by_asc(content_entry::Column::ModelType)
                .all(db)
                .await?;
            let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
            let texts = store::texts_for(db, &ids, lang).await?;
            entries
                .iter()
                .filter_map(|entry| {
                    let text = texts.get(&entry.id)?;
                    let record = renderer.record(entry, text, lang);
                    Some(item(entry.model_type?.to_string(), record.title))
                })
                .collect()
        }
        "help_category" => HELP_CATEGORIES
            .iter()
            .map(|code| item(*code, t(help_category_msg(code), &[])))
            .collect(),
        "article_category" => {
            store::page(db, renderer, &entries_of(vec![Kind::Category]), all, lang)
                .await?
                .records
                .into_iter()
                .map(|r| item(r.id.to_string(), r.title))
                .collect()
        }
        _ => {
            return Err(Refusal::not_found(Msg::UnknownDict)
                .with_param("code", code.chars().take(64).collect::<String>()));
        }
    })
}

/// The message naming help category `code`.
pub fn help_category_msg(code: &str) -> Msg {
    match code {
        "account" => Msg::HelpCategoryAccount,
        "funds" => Msg::HelpCategoryFunds,
        "trading" => Msg::HelpCategoryTrading,
        "security" => Msg::HelpCategorySecurity,
        _ => Msg::HelpCategorySupport,
    }
}
