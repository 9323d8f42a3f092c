//! An independent check of rendered content: the tags in HTML that could run something. The
//! renderer (`render`) is built so that it never leaves one; this scan does not trust it — a
//! debug build checks every render with it, and the tests hold the renderer and the HTTP answers to
//! it.

use std::sync::LazyLock;

use regex::Regex;

use super::render::IMAGE_PATH;

/// The tags a rendered text may hold.
const ALLOWED: [&str; 26] = [
    "p",
    "a",
    "img",
    "strong",
    "em",
    "code",
    "pre",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "ul",
    "ol",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "blockquote",
    "del",
    "br",
    "hr",
];

static TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"<\s*/?\s*([a-zA-Z0-9]+)([^>]*)>").expect("a valid pattern"));
static EVENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?i)\son[a-z]+\s*=").expect("a valid pattern"));

/// The tags of `html` that could run something: a tag outside the allow-list, an event
/// attribute, a `javascript:` or `data:` URL, an image from anywhere but an upload link. Empty for
/// safe markup.
pub fn markup_risks(html: &str) -> Vec<String> {
    TAG.captures_iter(html)
        .filter(|c| {
            let name = c[1].to_lowercase();
            let attrs = c[2].to_lowercase();
            !ALLOWED.contains(&name.as_str())
                || EVENT.is_match(&attrs)
                || attrs.contains("javascript:")
                || attrs.contains("data:")
                || (name == "img" && attrs.contains("src=") && !attrs.contains(IMAGE_PATH))
        })
        .map(|c| c[0].to_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scan_sees_what_it_must() {
        assert_eq!(
            markup_risks(
                "<p>a</p><script>x</script><img src=\"https://e/x\"><a href=\"javascript:x\"><hr>"
            ),
            vec![
                "<script>",
                "</script>",
                "<img src=\"https://e/x\">",
                "<a href=\"javascript:x\">"
            ]
        );
        assert_eq!(
            markup_risks("<div onclick=\"x\">d</div><a href=\"data:text/html,x\">"),
            vec![
                "<div onclick=\"x\">",
                "</div>",
                "<a href=\"data:text/html,x\">"
            ]
        );
        assert!(markup_risks("<p><img src=\"/api/file/content/4?sig=a\"></p>").is_empty());
    }
}
