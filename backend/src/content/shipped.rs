//! The texts the binary ships: `backend/content/<lang>/<kind>/<slug>.md`, embedded at build time
//! (`include_dir`), so `make run` and every release carry them. Each file is a TOML front matter
//! between two `+++` lines and a Markdown body (`backend/content/README.md` states the format for
//! translators). `<kind>` is a [`Kind`] folder, or `template` for the texts the server fills in
//! itself (the new-pair announcement of a listed coin). The English file of an item is the
//! original: it alone gives what all languages share (topic, category, section, position, flags,
//! `modelType`); a translation gives its title, summary and body.

use include_dir::{Dir, include_dir};
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{Kind, is_slug};
use crate::i18n::Lang;

static SHIPPED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/content");

/// The front matter of a shipped file.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrontMatter {
    /// Title, plain text.
    pub title: String,
    /// One or two sentences for lists.
    #[serde(default)]
    pub summary: String,
    /// An announcement's topic (a topic's slug).
    pub topic: Option<String>,
    /// A section's category (slug) or a help entry's category code.
    pub category: Option<String>,
    /// An article's section (slug).
    pub section: Option<String>,
    /// The `modelType` a topic or rules page answers.
    #[serde(rename = "modelType")]
    pub model_type: Option<i32>,
    /// Order among siblings (default 0).
    pub position: Option<i32>,
    /// Listed first among its topic's announcements.
    pub pinned: Option<bool>,
    /// Shown among the popular help entries and articles.
    pub promoted: Option<bool>,
}

/// One shipped file.
#[derive(Debug, Clone)]
pub struct ShippedItem {
    /// Its language.
    pub lang: Lang,
    /// Its kind.
    pub kind: Kind,
    /// Its slug (the file name without `.md`).
    pub slug: String,
    /// Its front matter.
    pub front: FrontMatter,
    /// Its Markdown body.
    pub body: String,
    /// SHA-256 of the whole file, hex: a changed file is a new shipped version.
    pub hash: String,
}

/// A shipped template (`<lang>/template/<name>.md`): a text the server fills in.
#[derive(Debug, Clone)]
pub struct Template {
    /// Its language.
    pub lang: Lang,
    /// Its front matter (title and summary may hold placeholders too).
    pub front: FrontMatter,
    /// Its Markdown body.
    pub body: String,
}

/// Why a shipped file cannot be read (a test reads them all, so a release never has one).
#[derive(Debug, thiserror::Error)]
#[error("backend/content/{path}: {reason}")]
pub struct ShippedError {
    /// The file, relative to `backend/content`.
    pub path: String,
    /// What is wrong.
    pub reason: String,
}

/// Splits a file into its front matter and body.
pub fn parse(path: &str, text: &str) -> Result<(FrontMatter, String), ShippedError> {
    let error = |reason: String| ShippedError {
        path: path.to_owned(),
        reason,
    };
    let text = text.replace("\r\n", "\n");
    let rest = text
        .strip_prefix("+++\n")
        .ok_or_else(|| error("must start with a `+++` line".into()))?;
    let (front, body) = rest
        .split_once("\n+++\n")
        .or_else(|| rest.strip_suffix("\n+++").map(|front| (front, "")))
        .ok_or_else(|| error("the front matter has no closing `+++` line".into()))?;
    let front: FrontMatter =
        toml::from_str(front).map_err(|e| error(format!("front matter: {e}")))?;
    if front.title.trim().is_empty() || front.title.chars().count() > 200 {
        return Err(error("the title must be 1 to 200 characters".into()));
    }
    Ok((front, body.trim().to_owned()))
}

fn files() -> impl Iterator<Item = (Lang, &'static str, &'static include_dir::File<'static>)> {
    SHIPPED.dirs().flat_map(|lang_dir| {
        let lang = lang_dir
            .path()
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|code| {
                crate::i18n::ALL_LANGS
                    .into_iter()
                    .find(|l| l.code() == code)
            });
        lang_dir.dirs().flat_map(move |kind_dir| {
            let kind = kind_dir
                .path()
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or_default();
            kind_dir
                .files()
                .filter_map(move |file| lang.map(|lang| (lang, kind, file)))
        })
    })
}

fn slug_of(file: &include_dir::File<'_>) -> Option<String> {
    let path = file.path();
    (path.extension()? == "md").then_some(())?;
    path.file_stem()?.to_str().map(str::to_owned)
}

fn text_of(file: &'static include_dir::File<'static>) -> Result<&'static str, ShippedError> {
    std::str::from_utf8(file.contents()).map_err(|_| ShippedError {
        path: file.path().to_string_lossy().into_owned(),
        reason: "not UTF-8".into(),
    })
}

/// Every shipped item, English first within each kind; an error for any file that is not right
/// (unknown language or kind folder, bad slug, bad front matter, a translation without an English
/// original, a parent that does not exist).
pub fn items() -> Result<Vec<ShippedItem>, ShippedError> {
    let mut items = Vec::new();
    for (lang, kind_name, file) in files() {
        let path = file.path().to_string_lossy().into_owned();
        if kind_name == "template" {
            continue;
        }
        let error = |reason: &str| ShippedError {
            path: path.clone(),
            reason: reason.to_owned(),
        };
        let kind = Kind::parse(kind_name).ok_or_else(|| error("unknown kind folder"))?;
        let slug = slug_of(file).ok_or_else(|| error("not a .md file"))?;
        if !is_slug(&slug) {
            return Err(error(
                "the file name must be lower-case letters, digits and hyphens",
            ));
        }
        let text = text_of(file)?;
        let (front, body) = parse(&path, text)?;
        items.push(ShippedItem {
            lang,
            kind,
            slug,
            front,
            body,
            hash: hex(&Sha256::digest(text.as_bytes())),
        });
    }
    items.sort_by(|a, b| {
        (a.kind, a.lang != Lang::En, &a.slug, a.lang.code()).cmp(&(
            b.kind,
            b.lang != Lang::En,
            &b.slug,
            b.lang.code(),
        ))
    });
    check(&items)?;
    Ok(items)
}

/// The shipped templates named `name`, one per language that has it.
pub fn templates(name: &str) -> Result<Vec<Template>, ShippedError> {
    let mut out = Vec::new();
    for (lang, kind_name, file) in files() {
        if kind_name != "template" || slug_of(file).as_deref() != Some(name) {
            continue;
        }
        let path = file.path().to_string_lossy().into_owned();
        let (front, body) = parse(&path, text_of(file)?)?;
        out.push(Template { lang, front, body });
    }
    out.sort_by_key(|t| (t.lang != Lang::En, t.lang.code()));
    Ok(out)
}

fn check(items: &[ShippedItem]) -> Result<(), ShippedError> {
    let original = |kind: Kind, slug: &str| {
        items
            .iter()
            .find(|i| i.kind == kind && i.slug == slug && i.lang == Lang::En)
    };
    let mut model_types = std::collections::HashMap::new();
    for item in items {
        let path = format!(
            "{}/{}/{}.md",
            item.lang.code(),
            item.kind.as_str(),
            item.slug
        );
        let error = |reason: String| ShippedError {
            path: path.clone(),
            reason,
        };
        if item.lang != Lang::En {
            if original(item.kind, &item.slug).is_none() {
                return Err(error("a translation without an English original".into()));
            }
            continue;
        }
        let front = &item.front;
        match item.kind {
            Kind::Section => {
                let parent = front.category.as_deref().unwrap_or_default();
                if original(Kind::Category, parent).is_none() {
                    return Err(error(format!("no category `{parent}`")));
                }
            }
            Kind::Article => {
                let parent = front.section.as_deref().unwrap_or_default();
                if original(Kind::Section, parent).is_none() {
                    return Err(error(format!("no section `{parent}`")));
                }
            }
            Kind::Announcement => {
                let topic = front.topic.as_deref().unwrap_or_default();
                if original(Kind::Topic, topic).is_none() {
                    return Err(error(format!("no topic `{topic}`")));
                }
            }
            Kind::Help => {
                let category = front.category.as_deref().unwrap_or_default();
                if !super::HELP_CATEGORIES.contains(&category) {
                    return Err(error(format!("no help category `{category}`")));
                }
            }
            Kind::Topic | Kind::Rule => {
                let model_type = front
                    .model_type
                    .ok_or_else(|| error("a topic or rules page needs its modelType".into()))?;
                if let Some(other) = model_types.insert(model_type, item.slug.clone()) {
                    return Err(error(format!("modelType {model_type} is `{other}`'s too")));
                }
            }
            Kind::Category | Kind::Company => {}
        }
    }
    Ok(())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_file_reads_and_english_covers_every_kind() {
        let items = items().expect("every shipped file is right");
        for kind in Kind::ALL {
            assert!(
                items.iter().any(|i| i.kind == kind && i.lang == Lang::En),
                "no English {kind:?}"
            );
        }
        let english = |kind| {
            items
                .iter()
                .filter(|i| i.kind == kind && i.lang == Lang::En)
                .count()
        };
        assert_eq!(english(Kind::Topic), 14, "the spec's 14 topics");
        assert!(english(Kind::Help) >= 12);
        assert!(!templates("new-pair").unwrap().is_empty());
    }

    #[test]
    fn no_placeholder_text_is_shipped() {
        for item in items().unwrap() {
            let text = format!("{} {} {}", item.front.title, item.front.summary, item.body);
            let lower = text.to_lowercase();
            // Filler in any language; the writer's markers only in capitals, since "todo" is an
            // everyday word in Spanish and Portuguese ("todos", "método").
            let filler = ["lorem", "ipsum", "not open yet"]
                .into_iter()
                .filter(|word| lower.contains(word));
            let markers = ["TODO", "TBD", "FIXME", "XXX"]
                .into_iter()
                .filter(|word| text.contains(word));
            let found: Vec<&str> = filler.chain(markers).collect();
            assert!(
                found.is_empty(),
                "{}/{} ({}): {found:?}",
                item.kind.as_str(),
                item.slug,
                item.lang.code()
            );
        }
    }

    #[test]
    fn the_front_matter_is_strict() {
        let ok = parse("x.md", "+++\ntitle = \"A\"\nposition = 2\n+++\nBody\n").unwrap();
        assert_eq!(ok.0.position, Some(2));
        assert_eq!(ok.1, "Body");
        assert!(parse("x.md", "title = \"A\"\n").is_err());
        assert!(parse("x.md", "+++\ntitle = \"A\"\n").is_err());
        assert!(parse("x.md", "+++\ntitle = \"A\"\ncolour = 1\n+++\n").is_err());
        assert!(parse("x.md", "+++\ntitle = \"\"\n+++\n").is_err());
        let crlf = parse("x.md", "+++\r\ntitle = \"A\"\r\n+++\r\nB\r\n").unwrap();
        assert_eq!(crlf.1, "B");
    }
}
