//! HTTP of the public content calls: the spec's help centre (`POST /api/helpcenter/list`,
//! `POST /api/helpCenterInfo/{id}`), forms and dictionaries (`GET /api/{head}/cgform-api/getData/
//! {form}`, `…/detailData/{form}/{id}`, `GET /api/{head}/sys/sys/dict/getDictItems/{code}`), and
//! the store's own reads under `/api/content/`: announcements by topic (pinned first), the page of
//! a `modelType`, the company page, search and the popular entries. Open to visitors; every text
//! is in the `lang` header's language or marked as the English fallback.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, Object, OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::forms::{self, DictItem, Form};
use super::render::Vars;
use super::store::{self, Listing, Renderer, Size, SortColumn};
use super::views::{ContentDetail, ContentPage, ContentRecord};
use super::{HELP_CATEGORIES, Kind};
use crate::clock::now_ms;
use crate::config::Config;
use crate::http::{JsonBody, ReadResponse, check_head};
use crate::i18n::{Msg, current_lang};
use crate::kyc::files::LinkKey;
use crate::paging::{MAX_PAGE_SIZE, Paging};
use crate::refusal::Refusal;

#[derive(Tags)]
enum ApiTags {
    /// Announcements, rules and topic pages, the help centre, articles and the company page.
    Content,
}

/// The public content calls.
pub struct ContentApi;

/// The spec's page size meaning "all" (bounded by [`MAX_PAGE_SIZE`]).
pub const PAGE_SIZE_ALL: i64 = -521;

/// Which help entries to list.
#[derive(Debug, Default, Object, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[oai(skip_serializing_if_is_none)]
pub struct HelpListRequest {
    /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
    #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
    pub page: Option<u64>,
    /// Page size, 1 to 100 (default 20).
    #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
    pub page_size: Option<u64>,
    /// Only this category: `account`, `funds`, `trading`, `security` or `support`.
    #[oai(validator(max_length = 32))]
    pub category: Option<String>,
    /// Only entries whose text contains this (any case), in the reader's language or English.
    #[oai(validator(max_length = 100))]
    pub keyword: Option<String>,
}

/// The column a form's rows are ordered by (default `id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
pub enum FormColumn {
    /// Entry id, creation order.
    #[oai(rename = "id")]
    Id,
    /// Position among siblings.
    #[oai(rename = "position")]
    Position,
    /// Creation time.
    #[oai(rename = "createTime")]
    CreateTime,
    /// Last change.
    #[oai(rename = "updateTime")]
    UpdateTime,
    /// Last publication.
    #[oai(rename = "publishTime")]
    PublishTime,
}

/// The direction of a form's order (default `desc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum)]
#[oai(rename_all = "lowercase")]
pub enum FormOrder {
    /// Ascending.
    Asc,
    /// Descending.
    Desc,
}

fn renderer(config: &Config, link_key: &LinkKey) -> Renderer {
    Renderer {
        vars: Vars::from_config(config),
        link_key: **link_key,
        now: now_ms(),
    }
}

fn paging(page: Option<u64>, page_size: Option<u64>) -> Paging {
    Paging::new(page, page_size)
}

/// The size a form call asks for: -521 is all (up to [`MAX_PAGE_SIZE`]), 1 to 100 a page; any
/// other value is refused naming `pageSize`.
fn form_size(page_no: Option<u64>, page_size: Option<i64>) -> Result<Size, Refusal> {
    match page_size {
        Some(PAGE_SIZE_ALL) => Ok(Size::All),
        Some(size) if !(1..=MAX_PAGE_SIZE as i64).contains(&size) => {
            Err(Refusal::invalid(Msg::InvalidField).with_field("pageSize"))
        }
        size => Ok(Size::Page(Paging::new(
            page_no,
            size.map(|s| s.unsigned_abs()),
        ))),
    }
}

#[OpenApi(tag = "ApiTags::Content")]
impl ContentApi {
    /// Help-centre entries in the reader's language (else English, marked `fallback`), by
    /// category and position; with `keyword`, the entries whose text contains it.
    #[oai(
        path = "/api/helpcenter/list",
        method = "post",
        operation_id = "helpCenterList"
    )]
    async fn help_center_list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        body: JsonBody<Option<HelpListRequest>>,
    ) -> ReadResponse<ContentPage> {
        let body = body.0.unwrap_or_default();
        let renderer = renderer(config, link_key);
        let lang = current_lang();
        let paging = paging(body.page, body.page_size);
        let result = async {
            if let Some(category) = body.category.as_deref()
                && !HELP_CATEGORIES.contains(&category)
            {
                return Err(Refusal::invalid(Msg::InvalidField).with_field("category"));
            }
            match body
                .keyword
                .as_deref()
                .map(str::trim)
                .filter(|k| !k.is_empty())
            {
                Some(keyword) => {
                    let scope = store::SearchScope {
                        kinds: &[Kind::Help],
                        category: body.category.as_deref(),
                    };
                    store::search(db, &renderer, keyword, scope, paging, lang).await
                }
                None => {
                    let listing = Listing {
                        kinds: vec![Kind::Help],
                        category: body.category.clone(),
                        sort: SortColumn::Position,
                        ..Listing::default()
                    };
                    store::page(db, &renderer, &listing, Size::Page(paging), lang).await
                }
            }
        }
        .await;
        ReadResponse::of(result)
    }

    /// One help-centre entry with its body as sanitised HTML.
    #[oai(
        path = "/api/helpCenterInfo/:id",
        method = "post",
        operation_id = "helpCenterInfo"
    )]
    async fn help_center_info(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The entry's id.
        id: Path<i64>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        ReadResponse::of(store::detail(db, &renderer, &[Kind::Help], id.0, current_lang()).await)
    }

    /// The rows of a form: `article_category`, `article_section` (`parentId` = a category),
    /// `article` (`parentId` = a section), `help_center` (`category`) or `announcement`
    /// (`topic`; pinned first). Ordered by `column` (default `id`) and `order` (default `desc`).
    /// `pageSize` -521 means all — up to 100 rows, the bound of every list; `total` tells whether
    /// there are more. An unknown form is 404 `unknown_form`.
    #[oai(
        path = "/api/:head/cgform-api/getData/:form",
        method = "get",
        operation_id = "cgformGetData"
    )]
    #[allow(clippy::too_many_arguments)]
    async fn cgform_get_data(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The configured `apiHead`.
        head: Path<String>,
        /// The form's name.
        form: Path<String>,
        /// Page, 1 to 1,000,000 (default 1).
        #[oai(
            name = "pageNo",
            validator(minimum(value = "1"), maximum(value = "1000000"))
        )]
        page_no: Query<Option<u64>>,
        /// Page size: 1 to 100 (default 20), or -521 for all (up to 100 rows).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "-521"), maximum(value = "100"))
        )]
        page_size: Query<Option<i64>>,
        /// Order by (default `id`).
        column: Query<Option<FormColumn>>,
        /// Direction (default `desc`).
        order: Query<Option<FormOrder>>,
        /// Only the children of this entry (sections of a category, articles of a section).
        #[oai(name = "parentId")]
        parent_id: Query<Option<i64>>,
        /// Only announcements of this topic (slug).
        #[oai(validator(max_length = 48))]
        topic: Query<Option<String>>,
        /// Only help entries of this category.
        #[oai(validator(max_length = 32))]
        category: Query<Option<String>>,
    ) -> ReadResponse<ContentPage> {
        let renderer = renderer(config, link_key);
        let result = async {
            check_head(&head.0, config)?;
            let form = Form::parse(&form.0)?;
            let size = form_size(page_no.0, page_size.0)?;
            let mut listing = form.listing(parent_id.0, topic.0, category.0);
            listing.sort = match column.0.unwrap_or(FormColumn::Id) {
                FormColumn::Id => SortColumn::Id,
                FormColumn::Position => SortColumn::Position,
                FormColumn::CreateTime => SortColumn::CreatedAt,
                FormColumn::UpdateTime => SortColumn::UpdatedAt,
                FormColumn::PublishTime => SortColumn::PublishedAt,
            };
            listing.descending = order.0.unwrap_or(FormOrder::Desc) == FormOrder::Desc;
            store::page(db, &renderer, &listing, size, current_lang()).await
        }
        .await;
        ReadResponse::of(result)
    }

    /// One row of a form with its body as sanitised HTML.
    #[oai(
        path = "/api/:head/cgform-api/detailData/:form/:id",
        method = "get",
        operation_id = "cgformDetailData"
    )]
    async fn cgform_detail_data(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The configured `apiHead`.
        head: Path<String>,
        /// The form's name.
        form: Path<String>,
        /// The row's id.
        id: Path<i64>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        let result = async {
            check_head(&head.0, config)?;
            let form = Form::parse(&form.0)?;
            store::detail(db, &renderer, &[form.kind()], id.0, current_lang()).await
        }
        .await;
        ReadResponse::of(result)
    }

    /// The items of a dictionary in the reader's language: `announcement_topic`,
    /// `rule_model_type`, `help_category`, `article_category`. An unknown code is 404
    /// `unknown_dict`.
    #[oai(
        path = "/api/:head/sys/sys/dict/getDictItems/:code",
        method = "get",
        operation_id = "getDictItems"
    )]
    async fn get_dict_items(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The configured `apiHead`.
        head: Path<String>,
        /// The dictionary's code.
        code: Path<String>,
    ) -> ReadResponse<Vec<DictItem>> {
        let renderer = renderer(config, link_key);
        let result = async {
            check_head(&head.0, config)?;
            forms::dict_items(db, &renderer, &code.0, current_lang()).await
        }
        .await;
        ReadResponse::of(result)
    }

    /// Announcements, pinned first, then newest published first; of one topic when given.
    #[oai(
        path = "/api/content/announcements",
        method = "get",
        operation_id = "contentAnnouncements"
    )]
    async fn announcements(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// Only this topic (slug, e.g. `new-pairs`).
        #[oai(validator(max_length = 48))]
        topic: Query<Option<String>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Page size, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> ReadResponse<ContentPage> {
        let renderer = renderer(config, link_key);
        let listing = Listing {
            kinds: vec![Kind::Announcement],
            topic: topic.0,
            pinned_first: true,
            sort: SortColumn::PublishedAt,
            descending: true,
            ..Listing::default()
        };
        let size = Size::Page(paging(page.0, page_size.0));
        ReadResponse::of(store::page(db, &renderer, &listing, size, current_lang()).await)
    }

    /// One announcement with its body as sanitised HTML.
    #[oai(
        path = "/api/content/announcements/:id",
        method = "get",
        operation_id = "contentAnnouncement"
    )]
    async fn announcement(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The announcement's id.
        id: Path<i64>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        let kinds = [Kind::Announcement];
        ReadResponse::of(store::detail(db, &renderer, &kinds, id.0, current_lang()).await)
    }

    /// The topic or rules page of `/rule/index?modelType=`: its text (a trading product's page
    /// holds the static rules; the webapp adds the live settings beside it).
    #[oai(
        path = "/api/content/page",
        method = "get",
        operation_id = "contentPage"
    )]
    async fn page(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The page's `modelType`.
        #[oai(
            name = "modelType",
            validator(minimum(value = "0"), maximum(value = "9999"))
        )]
        model_type: Query<i32>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        ReadResponse::of(store::by_model_type(db, &renderer, model_type.0, current_lang()).await)
    }

    /// An entry of any kind by id (the article routes `content/{type}/{id}`): an article, a
    /// section, a category, a help entry, an announcement, a topic or rules page.
    #[oai(
        path = "/api/content/entry/:id",
        method = "get",
        operation_id = "contentEntry"
    )]
    async fn entry(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The entry's id.
        id: Path<i64>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        ReadResponse::of(store::detail(db, &renderer, &Kind::ALL, id.0, current_lang()).await)
    }

    /// The company page (`/about/index`).
    #[oai(
        path = "/api/content/company",
        method = "get",
        operation_id = "contentCompany"
    )]
    async fn company(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
    ) -> ReadResponse<ContentDetail> {
        let renderer = renderer(config, link_key);
        ReadResponse::of(
            store::by_slug(db, &renderer, Kind::Company, "about", current_lang()).await,
        )
    }

    /// Help entries and articles whose text contains `q` (any case), in the reader's language
    /// (else English): title matches first, the reader's language before the fallbacks. Without
    /// `q`, every help entry and article, by position.
    #[oai(
        path = "/api/content/search",
        method = "get",
        operation_id = "contentSearch"
    )]
    async fn search(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// The text looked for, 1 to 100 characters.
        #[oai(validator(min_length = 1, max_length = 100))]
        q: Query<Option<String>>,
        /// Page, 1 to 1,000,000 (default 1); past the last row, an empty page.
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Page size, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> ReadResponse<ContentPage> {
        let renderer = renderer(config, link_key);
        let paging = paging(page.0, page_size.0);
        let q = q.0.unwrap_or_default();
        let scope = store::SearchScope::default();
        ReadResponse::of(store::search(db, &renderer, &q, scope, paging, current_lang()).await)
    }

    /// The promoted help entries and articles: those written in the reader's language first,
    /// English fallbacks after them.
    #[oai(
        path = "/api/content/popular",
        method = "get",
        operation_id = "contentPopular"
    )]
    async fn popular(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(config): Data<&Arc<Config>>,
        Data(link_key): Data<&LinkKey>,
        /// At most this many, 1 to 50 (default 10).
        #[oai(validator(minimum(value = "1"), maximum(value = "50")))]
        limit: Query<Option<u64>>,
    ) -> ReadResponse<Vec<ContentRecord>> {
        let renderer = renderer(config, link_key);
        let limit = limit.0.unwrap_or(10);
        ReadResponse::of(store::popular(db, &renderer, limit, current_lang()).await)
    }
}
