//! The languages of the product and the backend's own messages in each of them.
//!
//! A request's language comes from the `lang` header, else `language`, else `Accept-Language`
//! (see [`Lang::from_headers`]); [`with_lang`] makes it the language of everything the request runs,
//! so services and error handlers call [`t`] without passing it around.

use std::{collections::HashMap, future::Future, sync::OnceLock};

/// One of the 14 languages of the product (spec section 1). English is the default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    /// English (default).
    #[default]
    En,
    /// Japanese.
    Ja,
    /// Korean.
    Ko,
    /// Chinese, simplified.
    ZhCn,
    /// Chinese, traditional.
    ZhTw,
    /// Portuguese.
    Pt,
    /// Vietnamese.
    Vi,
    /// Thai.
    Th,
    /// Spanish.
    Es,
    /// French.
    Fr,
    /// Russian.
    Ru,
    /// German.
    De,
    /// Italian.
    It,
    /// Lithuanian.
    Lt,
}

/// Every language, in the order the language switcher lists them.
pub const ALL_LANGS: [Lang; 14] = [
    Lang::En,
    Lang::ZhCn,
    Lang::ZhTw,
    Lang::Ja,
    Lang::Ko,
    Lang::Vi,
    Lang::Th,
    Lang::Es,
    Lang::Pt,
    Lang::Fr,
    Lang::De,
    Lang::It,
    Lang::Ru,
    Lang::Lt,
];

/// A backend message, by key; the texts live in `backend/locales/<code>.json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    /// The call succeeded.
    Success,
    /// No such path or object.
    NotFound,
    /// The path exists, the method does not.
    MethodNotAllowed,
    /// The body is not JSON at all.
    MalformedJson,
    /// A field has a value of the wrong type or shape (`{field}`).
    InvalidField,
    /// A required field is missing (`{field}`).
    MissingField,
    /// A field the call does not know (`{field}`).
    UnknownField,
    /// The body is JSON but not acceptable, without a single field to blame.
    InvalidBody,
    /// The body is not declared as JSON.
    UnsupportedMediaType,
    /// The body exceeds the size limit.
    PayloadTooLarge,
    /// Something failed on the server.
    InternalError,
    /// The session is missing, expired or revoked.
    Unauthorized,
    /// A live-channel subscription names no known channel (`{channel}`).
    UnknownChannel,
    /// A live-channel subscription names no listed pair (`{symbol}`).
    UnknownSymbol,
    /// A kline request names no known interval (`{interval}`).
    UnknownInterval,
    /// A live-channel message is not understood.
    BadMessage,
    /// A live-channel client fell too far behind and is disconnected.
    TooSlow,
}

impl Msg {
    /// The key of this message in the locale files.
    pub fn key(self) -> &'static str {
        match self {
            Msg::Success => "success",
            Msg::NotFound => "not_found",
            Msg::MethodNotAllowed => "method_not_allowed",
            Msg::MalformedJson => "malformed_json",
            Msg::InvalidField => "invalid_field",
            Msg::MissingField => "missing_field",
            Msg::UnknownField => "unknown_field",
            Msg::InvalidBody => "invalid_body",
            Msg::UnsupportedMediaType => "unsupported_media_type",
            Msg::PayloadTooLarge => "payload_too_large",
            Msg::InternalError => "internal_error",
            Msg::Unauthorized => "unauthorized",
            Msg::UnknownChannel => "unknown_channel",
            Msg::UnknownSymbol => "unknown_symbol",
            Msg::UnknownInterval => "unknown_interval",
            Msg::BadMessage => "bad_message",
            Msg::TooSlow => "too_slow",
        }
    }
}

impl Lang {
    /// The code used by the webapp, the `lang` header and the locale file name.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
            Lang::Ko => "ko",
            Lang::ZhCn => "zh-CN",
            Lang::ZhTw => "zh-TW",
            Lang::Pt => "pt",
            Lang::Vi => "vi",
            Lang::Th => "th",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::Ru => "ru",
            Lang::De => "de",
            Lang::It => "it",
            Lang::Lt => "lt",
        }
    }

    /// The language's name in itself, as a language list shows it.
    pub fn native_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Ja => "日本語",
            Lang::Ko => "한국어",
            Lang::ZhCn => "简体中文",
            Lang::ZhTw => "繁體中文",
            Lang::Pt => "Português",
            Lang::Vi => "Tiếng Việt",
            Lang::Th => "ไทย",
            Lang::Es => "Español",
            Lang::Fr => "Français",
            Lang::Ru => "Русский",
            Lang::De => "Deutsch",
            Lang::It => "Italiano",
            Lang::Lt => "Lietuvių",
        }
    }

    /// Reads a language tag leniently: case, `_` or `-`, and a region are all accepted
    /// (`en-US` → English, `zh` → simplified Chinese, `zh-Hant`/`zh-HK` → traditional).
    pub fn parse(tag: &str) -> Option<Lang> {
        let tag = tag.trim().replace('_', "-").to_ascii_lowercase();
        let mut parts = tag.split('-');
        let primary = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        Some(match primary {
            "en" => Lang::En,
            "ja" => Lang::Ja,
            "ko" => Lang::Ko,
            "zh" => {
                if rest
                    .iter()
                    .any(|part| matches!(*part, "tw" | "hk" | "mo" | "hant"))
                {
                    Lang::ZhTw
                } else {
                    Lang::ZhCn
                }
            }
            "pt" => Lang::Pt,
            "vi" => Lang::Vi,
            "th" => Lang::Th,
            "es" => Lang::Es,
            "fr" => Lang::Fr,
            "ru" => Lang::Ru,
            "de" => Lang::De,
            "it" => Lang::It,
            "lt" => Lang::Lt,
            _ => return None,
        })
    }

    /// The language of a request: the `lang` header, else `language`, else the first language of
    /// `Accept-Language` the product has; English when none is usable.
    pub fn from_headers(header: impl Fn(&str) -> Option<String>) -> Lang {
        for name in ["lang", "language"] {
            if let Some(lang) = header(name).as_deref().and_then(Lang::parse) {
                return lang;
            }
        }
        header("accept-language")
            .and_then(|value| {
                value
                    .split(',')
                    .filter_map(|part| Lang::parse(part.split(';').next().unwrap_or_default()))
                    .next()
            })
            .unwrap_or_default()
    }
}

type Catalog = HashMap<&'static str, HashMap<String, String>>;

/// The locale files, compiled into the binary.
const LOCALE_FILES: [(&str, &str); 14] = [
    ("en", include_str!("../locales/en.json")),
    ("ja", include_str!("../locales/ja.json")),
    ("ko", include_str!("../locales/ko.json")),
    ("zh-CN", include_str!("../locales/zh-CN.json")),
    ("zh-TW", include_str!("../locales/zh-TW.json")),
    ("pt", include_str!("../locales/pt.json")),
    ("vi", include_str!("../locales/vi.json")),
    ("th", include_str!("../locales/th.json")),
    ("es", include_str!("../locales/es.json")),
    ("fr", include_str!("../locales/fr.json")),
    ("ru", include_str!("../locales/ru.json")),
    ("de", include_str!("../locales/de.json")),
    ("it", include_str!("../locales/it.json")),
    ("lt", include_str!("../locales/lt.json")),
];

fn catalog() -> &'static Catalog {
    static CATALOG: OnceLock<Catalog> = OnceLock::new();
    CATALOG.get_or_init(|| {
        LOCALE_FILES
            .iter()
            .map(|(code, text)| {
                // The files are compiled in and checked by the tests below, so a parse failure
                // here is a build defect, not a runtime condition.
                let messages: HashMap<String, String> = serde_json::from_str(text)
                    .unwrap_or_else(|error| panic!("locale {code} is not valid JSON: {error}"));
                (*code, messages)
            })
            .collect()
    })
}

tokio::task_local! {
    static REQUEST_LANG: Lang;
}

/// Runs `future` with `lang` as the language of every message it produces.
pub async fn with_lang<F: Future>(lang: Lang, future: F) -> F::Output {
    REQUEST_LANG.scope(lang, future).await
}

/// The language of the request being served; English outside a request.
pub fn current_lang() -> Lang {
    REQUEST_LANG.try_with(|lang| *lang).unwrap_or_default()
}

/// The text of `msg` in the current request's language, with `{name}` placeholders filled.
pub fn t(msg: Msg, params: &[(&str, &str)]) -> String {
    translate(current_lang(), msg, params)
}

/// The text of `msg` in `lang`, with `{name}` placeholders filled; English when a text is missing.
pub fn translate(lang: Lang, msg: Msg, params: &[(&str, &str)]) -> String {
    let catalog = catalog();
    let template = catalog
        .get(lang.code())
        .and_then(|messages| messages.get(msg.key()))
        .or_else(|| catalog.get("en").and_then(|m| m.get(msg.key())))
        .map(String::as_str)
        .unwrap_or(msg.key());
    params
        .iter()
        .fold(template.to_owned(), |text, (name, value)| {
            text.replace(&format!("{{{name}}}"), value)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL_MSGS: [Msg; 17] = [
        Msg::Success,
        Msg::NotFound,
        Msg::MethodNotAllowed,
        Msg::MalformedJson,
        Msg::InvalidField,
        Msg::MissingField,
        Msg::UnknownField,
        Msg::InvalidBody,
        Msg::UnsupportedMediaType,
        Msg::PayloadTooLarge,
        Msg::InternalError,
        Msg::Unauthorized,
        Msg::UnknownChannel,
        Msg::UnknownSymbol,
        Msg::UnknownInterval,
        Msg::BadMessage,
        Msg::TooSlow,
    ];

    fn placeholders(text: &str) -> Vec<&str> {
        let mut names: Vec<&str> = text
            .split('{')
            .skip(1)
            .filter_map(|part| part.split_once('}').map(|(name, _)| name))
            .collect();
        names.sort_unstable();
        names
    }

    #[test]
    fn every_locale_has_every_message_with_the_same_placeholders() {
        let catalog = catalog();
        let english = &catalog["en"];
        assert_eq!(
            english.len(),
            ALL_MSGS.len(),
            "en.json has keys no Msg uses"
        );
        for lang in ALL_LANGS {
            let messages = &catalog[lang.code()];
            let mut keys: Vec<&String> = messages.keys().collect();
            keys.sort();
            let mut expected: Vec<&String> = english.keys().collect();
            expected.sort();
            assert_eq!(
                keys,
                expected,
                "locale {} has other keys than en",
                lang.code()
            );
            for msg in ALL_MSGS {
                let text = &messages[msg.key()];
                assert!(
                    !text.trim().is_empty(),
                    "{}:{} is empty",
                    lang.code(),
                    msg.key()
                );
                assert_eq!(
                    placeholders(text),
                    placeholders(&english[msg.key()]),
                    "{}:{} placeholders differ",
                    lang.code(),
                    msg.key()
                );
            }
        }
    }

    #[test]
    fn non_english_locales_are_translated() {
        let catalog = catalog();
        for lang in ALL_LANGS.into_iter().filter(|l| *l != Lang::En) {
            let same = ALL_MSGS
                .iter()
                .filter(|m| catalog[lang.code()][m.key()] == catalog["en"][m.key()])
                .count();
            assert!(same <= 1, "{} repeats {same} English texts", lang.code());
        }
    }

    #[test]
    fn tags_are_read_leniently() {
        assert_eq!(Lang::parse("en-US"), Some(Lang::En));
        assert_eq!(Lang::parse("zh_CN"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh"), Some(Lang::ZhCn));
        assert_eq!(Lang::parse("zh-Hant"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("ZH-tw"), Some(Lang::ZhTw));
        assert_eq!(Lang::parse("de-AT"), Some(Lang::De));
        assert_eq!(Lang::parse("xx"), None);
        for lang in ALL_LANGS {
            assert_eq!(Lang::parse(lang.code()), Some(lang));
        }
    }

    #[test]
    fn headers_are_read_in_order() {
        let headers = |pairs: &'static [(&'static str, &'static str)]| {
            move |name: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .map(|(_, v)| v.to_string())
            }
        };
        assert_eq!(
            Lang::from_headers(headers(&[("lang", "de"), ("language", "fr")])),
            Lang::De
        );
        assert_eq!(
            Lang::from_headers(headers(&[("lang", "??"), ("language", "fr")])),
            Lang::Fr
        );
        assert_eq!(
            Lang::from_headers(headers(&[("accept-language", "xx, ja;q=0.8")])),
            Lang::Ja
        );
        assert_eq!(Lang::from_headers(headers(&[])), Lang::En);
    }

    #[test]
    fn placeholders_are_filled() {
        assert_eq!(
            translate(Lang::En, Msg::InvalidField, &[("field", "keyword")]),
            "Invalid value for field 'keyword'"
        );
    }

    #[tokio::test]
    async fn the_request_language_is_scoped() {
        assert_eq!(current_lang(), Lang::En);
        let text = with_lang(Lang::De, async { t(Msg::Success, &[]) }).await;
        assert_eq!(text, translate(Lang::De, Msg::Success, &[]));
        assert_eq!(current_lang(), Lang::En);
    }
}
