//! Uploaded files: the type is read from the magic bytes (never from the client's name or declared
//! type) and then checked for real by [`super::sanitize`] (images decoded and re-encoded, PDFs with
//! active content refused); what passes is stored under a server-generated name in the upload
//! folder, and it is served only through short-lived links signed with the process's link key.
//!
//! A link is `/api/file/content/{fileId}?expires={unix_ms}&sig={hex}` where `sig` is the lower-case
//! hex HMAC-SHA256 of `"{fileId}:{expires}"` under the server's [`LinkKey`]. It needs no session (it is
//! used in `<img src>`): the signature is the permission, and only the file's owner or an operator
//! can have one made.

use std::path::{Path, PathBuf};

use hmac::{Hmac, KeyInit, Mac};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait, EntityTrait};
use sha2::Sha256;

use crate::clock::now_ms;
use crate::entity::{uploaded_file, user};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::random_token;
use crate::user::roles::is_operator;

/// How long a signed link works: five minutes.
pub const LINK_TTL_MS: i64 = 5 * 60 * 1000;

/// Clock difference between instances tolerated when checking a link's lifetime.
const CLOCK_SKEW_MS: i64 = 60_000;

/// The file types an upload may have, each recognised by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// JPEG: `FF D8 FF`.
    Jpeg,
    /// PNG: `89 50 4E 47 0D 0A 1A 0A`.
    Png,
    /// WebP: `RIFF`, four size bytes, `WEBP`.
    Webp,
    /// PDF: `%PDF-`.
    Pdf,
}

impl FileKind {
    /// The type of `bytes` from their magic bytes; `None` for anything else.
    pub fn detect(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Self::Jpeg)
        } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
            Some(Self::Png)
        } else if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
            Some(Self::Webp)
        } else if bytes.starts_with(b"%PDF-") {
            Some(Self::Pdf)
        } else {
            None
        }
    }

    /// The MIME type it is stored and served with.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Jpeg => "image/jpeg",
            Self::Png => "image/png",
            Self::Webp => "image/webp",
            Self::Pdf => "application/pdf",
        }
    }

    /// The extension of the stored name.
    pub fn extension(self) -> &'static str {
        match self {
            Self::Jpeg => "jpg",
            Self::Png => "png",
            Self::Webp => "webp",
            Self::Pdf => "pdf",
        }
    }
}

/// 413 "The file is larger than {max} MB" for a limit of `max_bytes`.
pub fn too_large(max_bytes: usize) -> Refusal {
    Refusal::new(RefusalKind::TooLarge, Msg::FileTooLarge)
        .with_field("file")
        .with_param("max", megabytes(max_bytes))
}

/// 400 "Please choose a file".
pub fn file_required() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::FileRequired).with_field("file")
}

/// `bytes` in MB (MiB) as users read it: `5`, `0.5`, `1.25`.
fn megabytes(bytes: usize) -> String {
    let hundredths = (bytes as u128 * 100).div_ceil(1024 * 1024);
    let text = format!("{}.{:02}", hundredths / 100, hundredths % 100);
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

/// Checks and stores an upload of `user_id`: at most `max_bytes`, a JPEG, PNG, WebP or PDF by its
/// magic bytes that passes [`super::sanitize::clean_upload`], written (the re-encoded image, or the
/// PDF) to `dir` under a new random name with the detected type's extension.
pub async fn store(
    db: &impl ConnectionTrait,
    dir: &Path,
    user_id: i64,
    bytes: &[u8],
    max_bytes: usize,
) -> Result<uploaded_file::Model, Refusal> {
    if bytes.is_empty() {
        return Err(file_required());
    }
    if bytes.len() > max_bytes {
        return Err(too_large(max_bytes));
    }
    let kind = FileKind::detect(bytes).ok_or_else(|| {
        Refusal::new(RefusalKind::UnsupportedMedia, Msg::UnsupportedFileType).with_field("file")
    })?;
    let clean = super::sanitize::clean_upload(kind, bytes.to_vec()).await?;
    let bytes = clean.bytes.as_slice();
    tokio::fs::create_dir_all(dir)
        .await
        .map_err(|e| Refusal::internal(format!("upload folder {}: {e}", dir.display())))?;
    let stored_name = format!("{}.{}", random_token(24), kind.extension());
    let path = dir.join(&stored_name);
    write_new(&path, bytes)
        .await
        .map_err(|e| Refusal::internal(format!("writing {}: {e}", path.display())))?;
    let inserted = uploaded_file::ActiveModel {
        user_id: Set(user_id),
        stored_name: Set(stored_name),
        content_type: Set(kind.content_type().to_owned()),
        size: Set(bytes.len() as i64),
        created_at: Set(now_ms()),
        ..Default::default()
    }
    .insert(db)
    .await;
    match inserted {
        Ok(file) => Ok(file),
        Err(error) => {
            // Without its row the file can never be served: do not leave it behind.
            tokio::fs::remove_file(&path).await.ok();
            Err(error.into())
        }
    }
}

/// Writes `bytes` to a file that must not exist yet (a name is never reused).
async fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use tokio::io::AsyncWriteExt;
    let mut file = tokio::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .await?;
    file.write_all(bytes).await?;
    file.flush().await
}

/// File `file_id` as `viewer` may see it: their own, or anyone's for an operator. Another user's
/// file is indistinguishable from a missing one (404).
pub async fn visible_to(
    db: &impl ConnectionTrait,
    viewer: &user::Model,
    file_id: i64,
) -> Result<uploaded_file::Model, Refusal> {
    uploaded_file::Entity::find_by_id(file_id)
        .one(db)
        .await?
        .filter(|file| file.user_id == viewer.id || is_operator(viewer))
        .ok_or_else(|| Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("fileId"))
}

/// A link to a file's content that works until `expires_at`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SignedLink {
    /// `/api/file/content/{fileId}?expires={expires_at}&sig={hex}`.
    pub url: String,
    /// Unix milliseconds after which the link answers 403.
    pub expires_at: i64,
}

/// The hex signature of a link to `file_id` valid until `expires`.
pub fn signature(key: &[u8; 32], file_id: i64, expires: i64) -> String {
    data_encoding::HEXLOWER.encode(&mac(key, file_id, expires).finalize().into_bytes())
}

fn mac(key: &[u8; 32], file_id: i64, expires: i64) -> Hmac<Sha256> {
    let mut mac =
        <Hmac<Sha256> as KeyInit>::new_from_slice(key).expect("HMAC takes keys of any length");
    mac.update(format!("{file_id}:{expires}").as_bytes());
    mac
}

/// The key that signs short-lived file links: SHA-256 of the configured secret, or random (links
/// then end with the process, which only shortens their short life).
#[derive(Clone)]
pub struct LinkKey(std::sync::Arc<[u8; 32]>);

impl LinkKey {
    /// The key of `secret` (random when it is empty).
    pub fn from_secret(secret: &str) -> Self {
        use sha2::Digest;
        let mut key = [0u8; 32];
        if secret.is_empty() {
            rand::fill(&mut key[..]);
        } else {
            key = Sha256::digest(secret.as_bytes()).into();
        }
        Self(std::sync::Arc::new(key))
    }
}

impl std::ops::Deref for LinkKey {
    type Target = [u8; 32];

    fn deref(&self) -> &[u8; 32] {
        &self.0
    }
}

/// A link to `file_id` valid for [`LINK_TTL_MS`] from `now_ms`.
pub fn sign_link(key: &[u8; 32], file_id: i64, now_ms: i64) -> SignedLink {
    let expires_at = now_ms + LINK_TTL_MS;
    SignedLink {
        url: format!(
            "/api/file/content/{file_id}?expires={expires_at}&sig={}",
            signature(key, file_id, expires_at)
        ),
        expires_at,
    }
}

/// 403 "This link has expired".
fn link_expired() -> Refusal {
    Refusal::new(RefusalKind::Forbidden, Msg::LinkExpired)
}

/// Checks a link's `expires` and `sig` for `file_id` at `now_ms` (constant-time comparison); a
/// missing, malformed, forged or expired one is 403.
pub fn verify_link(
    key: &[u8; 32],
    file_id: i64,
    expires: Option<&str>,
    sig: Option<&str>,
    now_ms: i64,
) -> Result<(), Refusal> {
    let expires: i64 = expires
        .and_then(|text| text.parse().ok())
        .ok_or_else(link_expired)?;
    let sig = sig
        .and_then(|text| {
            data_encoding::HEXLOWER_PERMISSIVE
                .decode(text.as_bytes())
                .ok()
        })
        .ok_or_else(link_expired)?;
    mac(key, file_id, expires)
        .verify_slice(&sig)
        .map_err(|_| link_expired())?;
    // A genuine link never lives longer than its TTL (plus clock skew between instances); refusing
    // longer ones keeps a leaked link from outliving a clock that was once set wrong.
    if now_ms > expires || expires - now_ms > LINK_TTL_MS + CLOCK_SKEW_MS {
        return Err(link_expired());
    }
    Ok(())
}

/// The file behind a signed link and its bytes, read from `dir`.
pub async fn content(
    db: &impl ConnectionTrait,
    dir: &Path,
    key: &[u8; 32],
    file_id: i64,
    expires: Option<&str>,
    sig: Option<&str>,
) -> Result<(uploaded_file::Model, Vec<u8>), Refusal> {
    verify_link(key, file_id, expires, sig, now_ms())?;
    let not_found = || Refusal::new(RefusalKind::NotFound, Msg::NotFound);
    let file = uploaded_file::Entity::find_by_id(file_id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    let path = stored_path(dir, &file.stored_name).ok_or_else(not_found)?;
    match tokio::fs::read(&path).await {
        Ok(bytes) => Ok((file, bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            tracing::error!(path = %path.display(), "an uploaded file is missing from the upload folder");
            Err(not_found())
        }
        Err(error) => Err(Refusal::internal(format!(
            "reading {}: {error}",
            path.display()
        ))),
    }
}

/// Where a stored name lives in `dir`; `None` for a name that is not a plain file name.
fn stored_path(dir: &Path, stored_name: &str) -> Option<PathBuf> {
    let plain = !stored_name.is_empty()
        && stored_name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        && !stored_name.starts_with('.');
    plain.then(|| dir.join(stored_name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_come_from_magic_bytes() {
        assert_eq!(
            FileKind::detect(&[0xFF, 0xD8, 0xFF, 0xE0, 0, 0]),
            Some(FileKind::Jpeg)
        );
        assert_eq!(
            FileKind::detect(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"),
            Some(FileKind::Png)
        );
        assert_eq!(
            FileKind::detect(b"RIFF\x24\0\0\0WEBPVP8 "),
            Some(FileKind::Webp)
        );
        assert_eq!(FileKind::detect(b"%PDF-1.7\n"), Some(FileKind::Pdf));
        assert_eq!(FileKind::detect(b"MZ\x90\0\x03"), None);
        assert_eq!(FileKind::detect(b"RIFF\x24\0\0\0WAVEfmt "), None);
        assert_eq!(FileKind::detect(b"RIFF"), None);
        assert_eq!(FileKind::detect(b"hello"), None);
        assert_eq!(FileKind::detect(b""), None);
    }

    #[test]
    fn limits_read_in_megabytes() {
        assert_eq!(megabytes(5 * 1024 * 1024), "5");
        assert_eq!(megabytes(512 * 1024), "0.5");
        assert_eq!(megabytes(1024 * 1024 + 256 * 1024), "1.25");
    }

    #[test]
    fn links_verify_only_with_their_signature_and_time() {
        let key = [7u8; 32];
        let now = 1_700_000_000_000;
        let link = sign_link(&key, 42, now);
        assert_eq!(link.expires_at, now + LINK_TTL_MS);
        let sig = signature(&key, 42, link.expires_at);
        assert!(link.url.ends_with(&format!("&sig={sig}")));
        let expires = link.expires_at.to_string();
        assert!(verify_link(&key, 42, Some(&expires), Some(&sig), now).is_ok());
        assert!(verify_link(&key, 42, Some(&expires), Some(&sig), link.expires_at).is_ok());
        let refused = |file_id, expires: Option<&str>, sig: Option<&str>, at| {
            verify_link(&key, file_id, expires, sig, at)
                .unwrap_err()
                .msg
        };
        assert_eq!(
            refused(42, Some(&expires), Some(&sig), link.expires_at + 1),
            Msg::LinkExpired
        );
        assert_eq!(
            refused(43, Some(&expires), Some(&sig), now),
            Msg::LinkExpired
        );
        let later = (link.expires_at + 1).to_string();
        let far = now + 2 * LINK_TTL_MS;
        let far_sig = signature(&key, 42, far);
        assert_eq!(
            refused(42, Some(&far.to_string()), Some(&far_sig), now),
            Msg::LinkExpired
        );
        assert_eq!(refused(42, Some(&later), Some(&sig), now), Msg::LinkExpired);
        assert_eq!(
            refused(42, Some(&expires), Some("00ff"), now),
            Msg::LinkExpired
        );
        assert_eq!(refused(42, None, Some(&sig), now), Msg::LinkExpired);
        assert_eq!(refused(42, Some(&expires), None, now), Msg::LinkExpired);
        assert!(verify_link(&[8u8; 32], 42, Some(&expires), Some(&sig), now).is_err());
    }

    #[test]
    fn only_plain_names_map_to_paths() {
        let dir = Path::new("/uploads");
        assert_eq!(
            stored_path(dir, "abc_-1.png"),
            Some(PathBuf::from("/uploads/abc_-1.png"))
        );
        assert_eq!(stored_path(dir, "../etc/passwd"), None);
        assert_eq!(stored_path(dir, ".hidden"), None);
        assert_eq!(stored_path(dir, ""), None);
    }
}
