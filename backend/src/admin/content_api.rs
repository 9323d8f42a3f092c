//! HTTP of the operators' content calls (`/api/admin/content/…`, operator role only): list and
//! read entries with every translation, save a text (creating the entry when new), publish and
//! unpublish it per language, pin, delete. The rules are `content::editor`'s.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use crate::clock::now_ms;
use crate::config::Config;
use crate::content::Kind;
use crate::content::editor::{self, Draft};
use crate::content::render::Vars;
use crate::content::store::Renderer;
use crate::content::views::{AdminEntry, AdminEntryPage};
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::{ALL_LANGS, Lang, Msg};
use crate::kyc::files::LinkKey;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::Satoken;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: announcements, pages, help centre and articles.
    AdminContent,
}

/// The operators' content calls.
pub struct AdminContentApi;

/// The kind of an entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum ContentKind {
    /// An article category.
    Category,
    /// A section of a category.
    Section,
    /// A topic of `/rule/index`.
    Topic,
    /// A trading product's rules page.
    Rule,
    /// The company page.
    Company,
    /// A help-centre entry.
    Help,
    /// An article.
    Article,
    /// An announcement.
    Announcement,
}

impl ContentKind {
    fn kind(self) -> Kind {
        match self {
            ContentKind::Category => Kind::Category,
            ContentKind::Section => Kind::Section,
            ContentKind::Topic => Kind::Topic,
            ContentKind::Rule => Kind::Rule,
            ContentKind::Company => Kind::Company,
            ContentKind::Help => Kind::Help,
            ContentKind::Article => Kind::Article,
            ContentKind::Announcement => Kind::Announcement,
        }
    }
}

/// A text to save: a new entry (no `id`; `kind` and `slug` required) or a text of an existing one.
/// Place fields left out keep their value.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct SaveContentRequest {
    /// The entry to edit; absent creates one.
    pub id: Option<i64>,
    /// The kind of a new entry.
    pub kind: Option<ContentKind>,
    /// The slug of a new entry: lower-case letters, digits and single hyphens, at most 96.
    #[oai(validator(max_length = 96))]
    pub slug: Option<String>,
    /// Language code (`en`, `zh-CN`, …).
    #[oai(validator(max_length = 8))]
    pub lang: String,
    /// Title, 1 to 200 characters ('please enter content' when empty).
    #[oai(validator(max_length = 400))]
    pub title: String,
    /// Summary for lists, plain text.
    #[oai(validator(max_length = 1000))]
    pub summary: Option<String>,
    /// Markdown body (not empty). Images only as `![alt](upload:ID)`, an upload of an operator.
    #[oai(validator(max_length = 100000))]
    pub body: String,
    /// A section's category or an article's section.
    pub parent_id: Option<i64>,
    /// An announcement's topic (slug).
    #[oai(validator(max_length = 48))]
    pub topic: Option<String>,
    /// A help entry's category: `account`, `funds`, `trading`, `security`, `support`.
    #[oai(validator(max_length = 32))]
    pub category: Option<String>,
    /// A topic's or rules page's `modelType`, unique among them.
    #[oai(validator(minimum(value = "0"), maximum(value = "9999")))]
    pub model_type: Option<i32>,
    /// Order among siblings.
    #[oai(validator(minimum(value = "-100000"), maximum(value = "100000")))]
    pub position: Option<i32>,
    /// Among the popular entries.
    pub promoted: Option<bool>,
    /// The text lags behind English.
    pub outdated: Option<bool>,
}

/// A language of an entry.
#[derive(Debug, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LangRequest {
    /// Language code (`en`, `zh-CN`, …).
    #[oai(validator(max_length = 8))]
    pub lang: String,
}

/// Pinned or not.
#[derive(Debug, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PinRequest {
    /// `true` lists it first.
    pub pinned: bool,
}

/// What to delete.
#[derive(Debug, Default, Object, Deserialize)]
#[serde(deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct DeleteRequest {
    /// Only the text in this language; absent deletes the entry with every text.
    #[oai(validator(max_length = 8))]
    pub lang: Option<String>,
}

/// A body to preview.
#[derive(Debug, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PreviewRequest {
    /// Markdown body (not empty), as `save` takes it.
    #[oai(validator(max_length = 100000))]
    pub body: String,
}

/// A body as readers will see it.
#[derive(Debug, Object)]
pub struct ContentPreview {
    /// The body as sanitised HTML, its figures filled and its images as signed links.
    pub html: String,
}

/// One of the 14 language codes exactly, else `invalid_field` on `lang`.
fn lang_of(code: &str) -> Result<Lang, Refusal> {
    ALL_LANGS
        .into_iter()
        .find(|lang| lang.code() == code)
        .ok_or_else(|| Refusal::invalid(Msg::InvalidField).with_field("lang"))
}

#[OpenApi(tag = "ApiTags::AdminContent")]
impl AdminContentApi {
    /// Entries, newest first, of one kind when given, with every translation (drafts
    /// included).
    #[oai(
        path = "/api/admin/content/list",
        method = "get",
        operation_id = "adminContentList"
    )]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// Only this kind.
        kind: Query<Option<ContentKind>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Entries per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<AdminEntryPage> {
        let paging = Paging::new(page.0, page_size.0);
        let kind = kind.0.map(ContentKind::kind);
        MemberResponse::of(
            editor::list(db, &auth.0.user, kind, paging).await,
            Msg::Success,
        )
    }

    /// One entry with every translation.
    #[oai(
        path = "/api/admin/content/:id",
        method = "get",
        operation_id = "adminContentGet"
    )]
    async fn get(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The entry's id.
        id: Path<i64>,
    ) -> MemberResponse<AdminEntry> {
        MemberResponse::of(editor::get(db, &auth.0.user, id.0).await, Msg::Success)
    }

    /// Saves a text (a new one is a draft; an edited one keeps its status and becomes the
    /// operator's, never overwritten by a start). 409 `slug_taken` for a taken slug or
    /// `modelType`; 400 `content_required`, `unknown_parent`, `image_not_uploaded`.
    #[oai(
        path = "/api/admin/content/save",
        method = "post",
        operation_id = "adminContentSave"
    )]
    async fn save(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        body: JsonBody<SaveContentRequest>,
    ) -> MemberResponse<AdminEntry> {
        let body = body.0;
        let result = async {
            let draft = Draft {
                id: body.id,
                kind: body.kind.map(ContentKind::kind),
                slug: body.slug,
                lang: lang_of(&body.lang)?,
                title: body.title,
                summary: body.summary.unwrap_or_default(),
                body: body.body,
                parent_id: body.parent_id,
                topic: body.topic,
                category: body.category,
                model_type: body.model_type,
                position: body.position,
                promoted: body.promoted,
                outdated: body.outdated,
            };
            editor::save(db, &auth.0.user, draft).await
        }
        .await;
        MemberResponse::of(result, Msg::ContentSaved)
    }

    /// Publishes the text in `lang`: readers see it at once, and an announcement is pushed on
    /// `/ws/business/notice` within a second.
    #[oai(
        path = "/api/admin/content/:id/publish",
        method = "post",
        operation_id = "adminContentPublish"
    )]
    async fn publish(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The entry's id.
        id: Path<i64>,
        body: JsonBody<LangRequest>,
    ) -> MemberResponse<AdminEntry> {
        let result = async {
            let lang = lang_of(&body.0.lang)?;
            editor::set_published(db, &auth.0.user, id.0, lang, true).await
        }
        .await;
        MemberResponse::of(result, Msg::ContentPublished)
    }

    /// Takes the text in `lang` back to draft: readers no longer see it (nor, without another
    /// published text, the entry).
    #[oai(
        path = "/api/admin/content/:id/unpublish",
        method = "post",
        operation_id = "adminContentUnpublish"
    )]
    async fn unpublish(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The entry's id.
        id: Path<i64>,
        body: JsonBody<LangRequest>,
    ) -> MemberResponse<AdminEntry> {
        let result = async {
            let lang = lang_of(&body.0.lang)?;
            editor::set_published(db, &auth.0.user, id.0, lang, false).await
        }
        .await;
        MemberResponse::of(result, Msg::ContentUnpublished)
    }

    /// Pins or unpins an entry (a pinned announcement is listed first in its topic).
    #[oai(
        path = "/api/admin/content/:id/pin",
        method = "post",
        operation_id = "adminContentPin"
    )]
    async fn pin(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The entry's id.
        id: Path<i64>,
        body: JsonBody<PinRequest>,
    ) -> MemberResponse<AdminEntry> {
        MemberResponse::of(
            editor::set_pinned(db, &auth.0.user, id.0, body.0.pinned).await,
            Msg::Success,
        )
    }

    /// Deletes the text in `lang`, or the whole entry; a deleted shipped text is not seeded again.
    #[oai(
        path = "/api/admin/content/:id/delete",
        method = "post",
        operation_id = "adminContentDelete"
    )]
    async fn delete(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// The entry's id.
        id: Path<i64>,
        body: JsonBody<Option<DeleteRequest>>,
    ) -> MemberResponse<bool> {
        let result = async {
            let lang = body
                .0
                .unwrap_or_default()
                .lang
                .as_deref()
                .map(lang_of)
                .transpose()?;
            editor::delete(db, &auth.0.user, id.0, lang).await?;
            Ok(true)
        }
        .await;
        MemberResponse::of(result, Msg::ContentDeleted)
    }

    /// The body as readers will see it, without saving: its `{{name}}` figures filled, sanitised
    /// like a published text, images as signed links (only operators' uploads:
    /// `image_not_uploaded` otherwise); 400 `content_required` for an empty body.
    #[oai(
        path = "/api/admin/content/preview",
        method = "post",
        operation_id = "adminContentPreview"
    )]
    async fn preview(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        auth: Satoken,
        body: JsonBody<PreviewRequest>,
    ) -> MemberResponse<ContentPreview> {
        let renderer = Renderer {
            vars: Vars::from_config(config),
            link_key: **link_key,
            now: now_ms(),
        };
        let result = editor::preview(db, &auth.0.user, &renderer, &body.0.body)
            .await
            .map(|html| ContentPreview { html });
        MemberResponse::of(result, Msg::Success)
    }
}
