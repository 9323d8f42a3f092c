//! E-mail addresses. The spec's rule is "text, an at sign, more text"; this check keeps to it and also
//! refuses what is obviously broken, so a typo is caught before a code is sent nowhere:
//!
//! - exactly one `@`, with a local part of 1 to 64 characters and a domain of 1 to 253, at most 254
//!   characters in all;
//! - local part: letters and digits (any script), `.` and ``!#$%&'*+/=?^_`{|}~-`` (RFC 5322's atom
//!   characters; quoted local parts are not accepted);
//! - domain: dot-separated labels of letters and digits (any script, for internationalized domains)
//!   and `-`, each label non-empty, not starting or ending with `-`, at least two labels, and a last
//!   label (the top-level domain) of at least two characters that is not all digits. So `user@localhost`,
//!   `user@1.2.3.4`, `user@example.` and `user@-example.com` are refused;
//! - no whitespace anywhere (surrounding whitespace is not trimmed: the value is checked as it would be
//!   sent).

use super::Violation;

const LOCAL_SPECIALS: &str = "!#$%&'*+/=?^_`{|}~-.";

/// Checks an e-mail address (rules in [`crate::validate::email`]): [`Violation::Required`] when
/// empty, [`Violation::EmailFormat`] when malformed.
pub fn validate_email(email: &str) -> Result<(), Violation> {
    if email.is_empty() {
        return Err(Violation::Required);
    }
    if is_email(email) {
        Ok(())
    } else {
        Err(Violation::EmailFormat)
    }
}

fn is_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else {
        return false;
    };
    let local_ok = (1..=64).contains(&local.chars().count())
        && local
            .chars()
            .all(|c| c.is_alphanumeric() || LOCAL_SPECIALS.contains(c));
    local_ok && email.chars().count() <= 254 && is_domain(domain)
}

fn is_domain(domain: &str) -> bool {
    if domain.chars().count() > 253 {
        return false;
    }
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |label: &&str| {
        !label.is_empty()
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let top_ok = labels
        .last()
        .is_some_and(|top| top.chars().count() >= 2 && !top.chars().all(|c| c.is_ascii_digit()));
    labels.len() >= 2 && labels.iter().all(label_ok) && top_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses() {
        for email in [
            "user@example.com",
            "first.last+tag@mail.example.co.uk",
            "x@ab.io",
            "o'brien@example.ie",
            "用户@例子.广告",
            "user@xn--fsqu00a.xn--3lr804guic",
            "a-b_c@sub-domain.example.org",
        ] {
            assert_eq!(validate_email(email), Ok(()), "{email}");
        }
    }

    #[test]
    fn refuses_broken_addresses() {
        for email in [
            "plainaddress",
            "@example.com",
            "user@",
            "user@@example.com",
            "user@exa@mple.com",
            "user@localhost",
            "user@example.",
            "user@.example.com",
            "user@example..com",
            "user@-example.com",
            "user@example-.com",
            "user@example.c",
            "user@1.2.3.4",
            "user name@example.com",
            " user@example.com",
            "user@example.com ",
            "user@exa mple.com",
            "us,er@example.com",
            "user@exa,mple.com",
            "\"quoted\"@example.com",
            "user@example.com\n",
        ] {
            assert_eq!(
                validate_email(email),
                Err(Violation::EmailFormat),
                "{email:?}"
            );
        }
        assert_eq!(validate_email(""), Err(Violation::Required));
        let long_local = format!("{}@example.com", "a".repeat(65));
        assert_eq!(validate_email(&long_local), Err(Violation::EmailFormat));
    }
}
