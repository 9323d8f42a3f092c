//! From stored Markdown to what a reader gets: the platform's live figures filled in
//! (`{{spot_taker_fee}}` and the others of [`Vars::from_config`], so a text never contradicts the
//! configuration), then Markdown rendered to HTML (pulldown-cmark) and sanitised (ammonia).
//!
//! Nothing a text holds can run in a reader's browser: raw HTML in the Markdown is shown as text,
//! not passed through; the HTML is then cleaned by ammonia's allow-list (no `script`, `style`,
//! event attributes or `javascript:` links; links get `rel="noopener noreferrer nofollow"`); an
//! image is kept only when it is an upload of the checked upload path, written `![alt](upload:ID)`
//! and turned into a short-lived signed link (`kyc::files`), so no text loads anything from
//! elsewhere.

use ammonia::UrlRelative;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag};
use rust_decimal::Decimal;

use crate::config::Config;

/// The path every image of a rendered text starts with (a signed upload link).
pub const IMAGE_PATH: &str = "/api/file/content/";

/// The values a text may name as `{{name}}`.
#[derive(Debug, Clone, Default)]
pub struct Vars(Vec<(&'static str, String)>);

fn percent(rate: Decimal) -> String {
    format!("{}%", (rate * Decimal::ONE_HUNDRED).normalize())
}

impl Vars {
    /// The figures of the configuration in force.
    pub fn from_config(config: &Config) -> Self {
        let platform = &config.platform;
        let seconds_rows = config
            .seconds
            .periods
            .iter()
            .map(|p| {
                format!(
                    "| {} s | {} | {} USDT | {} USDT |",
                    p.seconds,
                    percent(p.payout_rate),
                    p.min_stake.normalize(),
                    p.max_stake.normalize()
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let withdraw_rows = config
            .funds
            .channels
            .iter()
            .map(|c| {
                let coin = c.coin.to_uppercase();
                format!(
                    "| {coin} | {} | {} {coin} | {} {coin} | {} {coin} |",
                    c.network,
                    c.min_deposit.normalize(),
                    c.withdraw_fee.normalize(),
                    c.min_withdraw.normalize()
                )
            })
            .collect::<Vec<_>>()
            .join("\n");
        let max_leverage = config
            .futures
            .tiers_of("btcusdt")
            .ok()
            .and_then(|tiers| tiers.iter().map(|t| t.max_leverage).max())
            .unwrap_or(Decimal::ONE);
        Self(vec![
            ("site_name", platform.site_name.clone()),
            ("support_email", platform.support_email.clone()),
            (
                "security_fund_percent",
                platform.security_fund_percent.clone(),
            ),
            ("spot_maker_fee", percent(config.trading.maker_fee_rate)),
            ("spot_taker_fee", percent(config.trading.taker_fee_rate)),
            ("futures_maker_fee", percent(config.futures.maker_fee_rate)),
            ("futures_taker_fee", percent(config.futures.taker_fee_rate)),
            ("futures_max_leverage", max_leverage.normalize().to_string()),
            (
                "funding_interval_hours",
                (config.futures.funding_interval_secs / 3600).to_string(),
            ),
            ("funding_cap", percent(config.futures.funding_cap)),
            ("funding_interest", percent(config.futures.funding_interest)),
            ("seconds_period_rows", seconds_rows),
            ("withdraw_rows", withdraw_rows),
            ("convert_spread", percent(config.convert.spread)),
            (
                "convert_min",
                config.convert.min_usdt.normalize().to_string(),
            ),
            (
                "convert_max",
                config.convert.max_usdt.normalize().to_string(),
            ),
            (
                "convert_daily_limit",
                config.convert.daily_limit_usdt.normalize().to_string(),
            ),
            (
                "session_days",
                (config.security.session_ttl_secs / 86_400).to_string(),
            ),
            (
                "max_upload_mb",
                (config.security.max_upload_bytes / (1024 * 1024)).to_string(),
            ),
        ])
    }

    /// These values and `extra` (a template's own, such as the listed pair).
    pub fn with(mut self, extra: &[(&'static str, String)]) -> Self {
        self.0.extend(extra.iter().cloned());
        self
    }

    /// `text` with every `{{name}}` of a known name replaced; other braces are left as they are.
    pub fn fill(&self, text: &str) -> String {
        if !text.contains("{{") {
            return text.to_owned();
        }
        let mut out = text.to_owned();
        for (name, value) in &self.0 {
            out = out.replace(&format!("{{{{{name}}}}}"), value);
        }
        out
    }
}

/// `markdown` as sanitised HTML; `image_link` turns an upload id into its link (`None` drops the
/// image).
pub fn to_html(markdown: &str, image_link: &dyn Fn(i64) -> Option<String>) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH;
    let events = Parser::new_ext(markdown, options).map(|event| match event {
        // Raw HTML is shown as the text it is, never passed through.
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::Image {
            link_type,
            dest_url,
            title,
            id,
        }) => {
            let dest = dest_url
                .strip_prefix("upload:")
                .and_then(|id| id.parse::<i64>().ok())
                .and_then(image_link)
                .unwrap_or_default();
            Event::Start(Tag::Image {
                link_type,
                dest_url: CowStr::from(dest),
                title,
                id,
            })
        }
        other => other,
    });
    let mut html = String::with_capacity(markdown.len() * 3 / 2);
    pulldown_cmark::html::push_html(&mut html, events);
    let html = sanitise(&html);
    debug_assert!(
        super::markup_check::markup_risks(&html).is_empty(),
        "the renderer left markup that can run: {html}"
    );
    html
}

/// `html` cleaned by the allow-list: what a text may hold and nothing that runs.
pub fn sanitise(html: &str) -> String {
    ammonia::Builder::default()
        .url_relative(UrlRelative::PassThrough)
        .link_rel(Some("noopener noreferrer nofollow"))
        .attribute_filter(|element, attribute, value| {
            if element == "img" && attribute == "src" && !value.starts_with(IMAGE_PATH) {
                None
            } else {
                Some(value.into())
            }
        })
        .clean(html)
        .to_string()
}

/// `markdown` as plain text of at most `max` characters (for search results without a summary).
pub fn plain_excerpt(markdown: &str, max: usize) -> String {
    let mut text = String::new();
    for event in Parser::new(markdown) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak | Event::HardBreak | Event::End(_) => text.push(' '),
            _ => {}
        }
        if text.chars().count() > max {
            break;
        }
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let cut: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::content::markup_check::markup_risks;

    fn html(markdown: &str) -> String {
        to_html(markdown, &|id| Some(format!("{IMAGE_PATH}{id}?sig=x")))
    }

    #[test]
    fn nothing_in_a_text_can_run() {
        let evil = "Hi <script>alert(1)</script>\n\n<img src=x onerror=alert(2)>\n\n\
                    [click](javascript:alert(3)) <a href=\"javascript:alert(4)\">a</a>\n\n\
                    <iframe src=\"https://evil.example\"></iframe><style>body{}</style>\n\n\
                    ![x](https://evil.example/track.png) ![y](data:image/png;base64,AAAA)\n\n\
                    <div onclick=\"alert(5)\">d</div>";
        let out = html(evil);
        assert_eq!(markup_risks(&out), Vec::<String>::new(), "{out}");
        assert!(!out.contains("evil.example/track"), "{out}");
        // Raw HTML is shown as the text it is.
        assert!(out.contains("&lt;script&gt;"), "{out}");
    }

    #[test]
    fn markdown_renders_and_uploads_become_signed_links() {
        let out = html(
            "# Title\n\n**bold** [rules](/rule/index?modelType=6) [mail](mailto:a@b.c)\n\n\
             | a | b |\n|---|---|\n| 1 | 2 |\n\n![chart](upload:42)",
        );
        assert!(out.contains("<h1>Title</h1>"), "{out}");
        assert!(out.contains("<strong>bold</strong>"));
        assert!(out.contains("href=\"/rule/index?modelType=6\""));
        assert!(out.contains("rel=\"noopener noreferrer nofollow\""));
        assert!(out.contains("href=\"mailto:a@b.c\""));
        assert!(out.contains("<table>"));
        assert!(out.contains("src=\"/api/file/content/42?sig=x\""), "{out}");
        let dropped = to_html("![c](upload:42)", &|_| None);
        assert!(!dropped.contains("src="), "{dropped}");
    }

    #[test]
    fn the_figures_of_the_configuration_are_filled_in() {
        let vars = Vars::from_config(&Config::default());
        let text = vars.fill(
            "{{site_name}}: {{spot_taker_fee}} / {{futures_taker_fee}}, \
             {{security_fund_percent}}% {{unknown}}",
        );
        assert_eq!(text, "Kestrel Exchange: 0.1% / 0.05%, 10% {{unknown}}");
        assert!(
            vars.fill("{{withdraw_rows}}")
                .contains("| USDT | TRC20 | 10 USDT | 1 USDT |")
        );
        assert!(
            vars.fill("{{seconds_period_rows}}")
                .contains("| 30 s | 80% |")
        );
        assert_eq!(vars.fill("{{futures_max_leverage}}"), "125");
    }

    #[test]
    fn excerpts_are_plain_and_bounded() {
        assert_eq!(
            plain_excerpt("# A\n\nSome **bold** text.", 100),
            "A Some bold text."
        );
        let long = plain_excerpt(&"word ".repeat(100), 20);
        assert!(long.chars().count() <= 20 && long.ends_with('…'), "{long}");
    }
}
