//! The request body of the upload calls: a `multipart/form-data` form with one field `file`.
//!
//! It is documented exactly as poem-openapi's `Multipart` with an `Upload` field ([`UploadForm`]),
//! but read by [`FileUpload`], which counts bytes as they arrive: poem-openapi's `Upload` copies a
//! field of any size into a temporary file first, so a limit checked afterwards would not protect
//! the disk. Nothing here fails the request itself: a missing, oversized or unreadable file becomes
//! the [`Refusal`] the handler answers with, so the 413 is the usual envelope with
//! `FileTooLarge` and its `{max}`.

use std::sync::Arc;

use poem::{FromRequest, Request, RequestBody, http::header, web::Multipart};
use poem_openapi::{
    ApiExtractor, ApiExtractorType, ExtractParamOptions,
    payload::Payload,
    registry::{MetaMediaType, MetaRequest, MetaSchemaRef, Registry},
    types::multipart::Upload,
};
use tokio::io::AsyncReadExt;

use super::files::{file_required, too_large};
use crate::config::Config;
use crate::config::SecurityConfig;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Room for the multipart framing (boundary, part headers) around a file of the largest size.
const MULTIPART_SLACK: usize = 64 * 1024;

/// The upload form (documentation only; [`FileUpload`] reads it).
#[derive(poem_openapi::Multipart)]
pub struct UploadForm {
    /// The file: JPEG, PNG, WebP or PDF (recognised by its content, not its name), at most 5 MiB.
    /// Images are decoded (at most 8192 pixels a side, 40 megapixels) and stored re-encoded,
    /// without metadata; PDFs with active content are refused.
    pub file: Upload,
}

/// The bytes of the form's `file` field, or why there are none.
pub struct FileUpload(pub Result<Vec<u8>, Refusal>);

impl Payload for FileUpload {
    const CONTENT_TYPE: &'static str = <UploadForm as Payload>::CONTENT_TYPE;

    fn check_content_type(content_type: &str) -> bool {
        <UploadForm as Payload>::check_content_type(content_type)
    }

    fn schema_ref() -> MetaSchemaRef {
        <UploadForm as Payload>::schema_ref()
    }

    fn register(registry: &mut Registry) {
        <UploadForm as Payload>::register(registry);
    }
}

impl<'a> ApiExtractor<'a> for FileUpload {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::RequestObject];
    type ParamType = ();
    type ParamRawType = ();

    fn register(registry: &mut Registry) {
        <Self as Payload>::register(registry);
    }

    fn request_meta() -> Option<MetaRequest> {
        Some(MetaRequest {
            description: None,
            content: vec![MetaMediaType {
                content_type: <Self as Payload>::CONTENT_TYPE,
                schema: <Self as Payload>::schema_ref(),
            }],
            required: true,
        })
    }

    async fn from_request(
        request: &'a Request,
        body: &mut RequestBody,
        _param_opts: ExtractParamOptions<Self::ParamType>,
    ) -> poem::Result<Self> {
        let limit = request.data::<Arc<Config>>().map_or_else(
            || SecurityConfig::default().max_upload_bytes,
            |config| config.security.max_upload_bytes,
        );
        Ok(FileUpload(read_file_field(request, body, limit).await))
    }
}

/// The most bytes read from a refused body so that the client gets to read the 413 (a server that
/// stops reading and closes makes many clients report a broken connection instead).
fn drain_cap(limit: usize) -> usize {
    limit.saturating_mul(4).max(1024 * 1024)
}

fn invalid_body() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::InvalidBody)
}

/// Reads the first `file` field of a multipart body, keeping at most `limit` bytes.
async fn read_file_field(
    request: &Request,
    body: &mut RequestBody,
    limit: usize,
) -> Result<Vec<u8>, Refusal> {
    let Some(content_type) = request.content_type() else {
        return Err(file_required());
    };
    if !<UploadForm as Payload>::check_content_type(content_type) {
        return Err(Refusal::new(
            RefusalKind::UnsupportedMedia,
            Msg::UnsupportedMediaType,
        ));
    }
    let cap = drain_cap(limit);
    let declared = request
        .header(header::CONTENT_LENGTH)
        .and_then(|value| value.trim().parse::<u64>().ok());
    if let Some(length) = declared
        && length > (limit + MULTIPART_SLACK) as u64
    {
        let expects_continue = request
            .header(header::EXPECT)
            .is_some_and(|value| value.eq_ignore_ascii_case("100-continue"));
        // A client waiting for "100 Continue" sends nothing; others are already sending.
        if !expects_continue && length <= cap as u64 {
            drain(body, cap).await;
        }
        return Err(too_large(limit));
    }

    let mut multipart = <Multipart as FromRequest>::from_request(request, body)
        .await
        .map_err(|_| invalid_body())?;
    let mut file: Option<Vec<u8>> = None;
    let mut oversized = false;
    let mut received = 0usize;
    let mut buffer = vec![0u8; 16 * 1024];
    loop {
        let field = match multipart.next_field().await {
            Ok(Some(field)) => field,
            Ok(None) => break,
            Err(_) if oversized => break,
            Err(_) => return Err(invalid_body()),
        };
        let wanted = file.is_none() && !oversized && field.name() == Some("file");
        let reader = field.into_async_read();
        tokio::pin!(reader);
        let mut kept = Vec::new();
        loop {
            let read = match reader.read(&mut buffer).await {
                Ok(0) => break,
                Ok(read) => read,
                Err(_) if oversized => return Err(too_large(limit)),
                Err(_) => return Err(invalid_body()),
            };
            received += read;
            if received > cap {
                return Err(too_large(limit));
            }
            if wanted && !oversized {
                if kept.len() + read > limit {
                    oversized = true;
                    kept = Vec::new();
                } else {
                    kept.extend_from_slice(&buffer[..read]);
                }
            }
        }
        if wanted && !oversized {
            file = Some(kept);
        }
    }
    if oversized {
        return Err(too_large(limit));
    }
    // A browser sends an empty part (and an empty file name) when no file was chosen.
    file.filter(|bytes| !bytes.is_empty())
        .ok_or_else(file_required)
}

/// Reads and discards up to `cap` bytes of the body.
async fn drain(body: &mut RequestBody, cap: usize) {
    if let Ok(body) = body.take() {
        let mut reader = body.into_async_read().take(cap as u64);
        tokio::io::copy(&mut reader, &mut tokio::io::sink())
            .await
            .ok();
    }
}
