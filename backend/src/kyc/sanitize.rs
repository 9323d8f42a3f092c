//! What an upload really is, beyond its first bytes.
//!
//! - Images (JPEG, PNG, WebP) are decoded for real with the `image` crate, within bounds on their
//!   dimensions, pixel count and memory (a decompression bomb is refused before it is decoded),
//!   turned upright by their EXIF orientation, and encoded again in the same format. What is stored
//!   and served is only the re-encoded pixels: bytes after the image's end (an HTML or script
//!   payload behind a valid image), metadata (EXIF with GPS position, XMP, comments, ICC) and
//!   anything a decoder ignores are gone. A file that does not decode is refused.
//! - PDFs are refused when they carry active content: JavaScript, automatic actions, launch
//!   actions, embedded files, rich media, XFA forms, form submission, or encryption (whose content
//!   cannot be inspected). Names are read with `#xx` escapes resolved, and compressed streams
//!   (where object streams hide dictionaries) are inflated, within a bound, and read as well. PDFs
//!   are still served as attachments only ([`crate::kyc::api`]), so a check that missed something
//!   never runs in the site's origin.
//!
//! Decoding runs on the blocking pool, at most [`MAX_CONCURRENT_DECODES`] at once, so that uploads
//! cannot take every core or much memory.

use std::io::Cursor;
use std::sync::OnceLock;

use image::{DynamicImage, ImageDecoder, ImageFormat, ImageReader, Limits};
use tokio::sync::Semaphore;

use super::files::FileKind;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// The widest and highest an accepted image may be, in pixels.
pub const MAX_SIDE: u32 = 8_192;
/// The most pixels an accepted image may have (40 megapixels; a phone's camera takes up to 50, a
/// document photo needs far fewer).
pub const MAX_PIXELS: u64 = 40_000_000;
/// The most memory one decoding may allocate.
const MAX_ALLOC: u64 = 256 * 1024 * 1024;
/// Images decoded at the same time; further uploads wait their turn.
pub const MAX_CONCURRENT_DECODES: usize = 2;
/// The most bytes all of a PDF's compressed streams may inflate to while they are inspected.
const MAX_INFLATED: usize = 64 * 1024 * 1024;
/// JPEG quality of re-encoded photos.
const JPEG_QUALITY: u8 = 90;

/// PDF names that start or hold active content: scripts, actions run on opening or on events,
/// launching programs, embedded or attached files, rich media, XFA forms, form submission and
/// data import, and encryption (whose content cannot be inspected).
const ACTIVE_PDF_NAMES: &[&[u8]] = &[
    b"JavaScript",
    b"JS",
    b"OpenAction",
    b"AA",
    b"Launch",
    b"EmbeddedFile",
    b"EmbeddedFiles",
    b"FileAttachment",
    b"RichMedia",
    b"XFA",
    b"SubmitForm",
    b"ImportData",
    b"GoToE",
    b"GoToR",
    b"Sound",
    b"Movie",
    b"Encrypt",
];

/// An upload that passed: its type and the bytes to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clean {
    /// The type (the same as the upload's).
    pub kind: FileKind,
    /// The re-encoded image, or the PDF as uploaded.
    pub bytes: Vec<u8>,
}

/// 415 "The image could not be read".
fn unreadable() -> Refusal {
    Refusal::new(RefusalKind::UnsupportedMedia, Msg::ImageUnreadable).with_field("file")
}

/// 400 "The image is too large: at most {max} pixels per side and {megapixels} megapixels".
fn too_many_pixels() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::ImageTooManyPixels)
        .with_field("file")
        .with_param("max", MAX_SIDE.to_string())
        .with_param("megapixels", (MAX_PIXELS / 1_000_000).to_string())
}

/// 415 "PDFs with scripts, actions, attachments or encryption are not accepted".
fn active_pdf() -> Refusal {
    Refusal::new(RefusalKind::UnsupportedMedia, Msg::PdfActiveContent).with_field("file")
}

/// Checks an upload of type `kind` and gives what may be stored (see the module documentation);
/// runs the decoding on the blocking pool.
pub async fn clean_upload(kind: FileKind, bytes: Vec<u8>) -> Result<Clean, Refusal> {
    static DECODES: OnceLock<Semaphore> = OnceLock::new();
    if kind == FileKind::Pdf {
        return tokio::task::spawn_blocking(move || clean(kind, &bytes))
            .await
            .map_err(Refusal::internal)?;
    }
    let _turn = DECODES
        .get_or_init(|| Semaphore::new(MAX_CONCURRENT_DECODES))
        .acquire()
        .await
        .map_err(Refusal::internal)?;
    tokio::task::spawn_blocking(move || clean(kind, &bytes))
        .await
        .map_err(Refusal::internal)?
}

/// The synchronous check of [`clean_upload`].
pub fn clean(kind: FileKind, bytes: &[u8]) -> Result<Clean, Refusal> {
    let bytes = match kind {
        FileKind::Pdf => {
            check_pdf(bytes)?;
            bytes.to_vec()
        }
        FileKind::Jpeg => reencode(bytes, ImageFormat::Jpeg)?,
        FileKind::Png => reencode(bytes, ImageFormat::Png)?,
        FileKind::Webp => reencode(bytes, ImageFormat::WebP)?,
    };
    Ok(Clean { kind, bytes })
}

/// Decodes `bytes` as `format` within the bounds and encodes the upright pixels again.
fn reencode(bytes: &[u8], format: ImageFormat) -> Result<Vec<u8>, Refusal> {
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(|error| refusal_of(&error))?;
    let (width, height) = decoder.dimensions();
    if width == 0
        || height == 0
        || width > MAX_SIDE
        || height > MAX_SIDE
        || u64::from(width) * u64::from(height) > MAX_PIXELS
    {
        return Err(too_many_pixels());
    }
    let orientation = decoder.orientation().map_err(|_| unreadable())?;
    let mut image = DynamicImage::from_decoder(decoder).map_err(|error| refusal_of(&error))?;
    image.apply_orientation(orientation);
    let mut out = Cursor::new(Vec::new());
    match format {
        ImageFormat::Jpeg => {
            // JPEG has no alpha channel; an 8-bit RGB or grey image is what its encoder takes.
            let image = if image.color().has_color() {
                DynamicImage::ImageRgb8(image.to_rgb8())
            } else {
                DynamicImage::ImageLuma8(image.to_luma8())
            };
            image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY)
                .encode_image(&image)
                .map_err(Refusal::internal)?;
        }
        ImageFormat::WebP => {
            // The WebP encoder takes 8-bit images.
            let image = if image.color().has_alpha() {
                DynamicImage::ImageRgba8(image.to_rgba8())
            } else {
                DynamicImage::ImageRgb8(image.to_rgb8())
            };
            image
                .write_to(&mut out, ImageFormat::WebP)
                .map_err(Refusal::internal)?;
        }
        _ => image
            .write_to(&mut out, format)
            .map_err(Refusal::internal)?,
    }
    Ok(out.into_inner())
}

/// A decoding failure as a refusal: a limit is "too large", anything else "unreadable".
fn refusal_of(error: &image::ImageError) -> Refusal {
    match error {
        image::ImageError::Limits(_) => too_many_pixels(),
        _ => unreadable(),
    }
}

/// Refuses a PDF with active content (see [`ACTIVE_PDF_NAMES`]), in its own bytes or in any of its
/// compressed streams.
fn check_pdf(bytes: &[u8]) -> Result<(), Refusal> {
    if has_active_name(bytes) {
        return Err(active_pdf());
    }
    let mut budget = MAX_INFLATED;
    for stream in streams(bytes) {
        let Ok(inflated) =
            miniz_oxide::inflate::decompress_to_vec_zlib_with_limit(stream, budget.max(1))
        else {
            // Not a Flate stream (an image's own coding), or past the budget: a stream too large
            // to inspect is refused when it is an object stream, where dictionaries hide.
            if budget == 0 || is_object_stream_before(bytes, stream) {
                return Err(active_pdf());
            }
            continue;
        };
        budget = budget.saturating_sub(inflated.len());
        if has_active_name(&inflated) {
            return Err(active_pdf());
        }
    }
    Ok(())
}

/// The data of every `stream … endstream` in `bytes`.
fn streams(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut at = 0;
    std::iter::from_fn(move || {
        loop {
            let start = find(&bytes[at..], b"stream")? + at;
            let mut data = start + b"stream".len();
            at = data;
            // `endstream` contains `stream`: only a keyword followed by an end of line opens one.
            if start >= 3 && &bytes[start - 3..start] == b"end" {
                continue;
            }
            match bytes.get(data..data + 2) {
                Some(b"\r\n") => data += 2,
                Some([b'\n', ..]) | Some([b'\r', ..]) => data += 1,
                _ => continue,
            }
            let end = find(&bytes[data..], b"endstream").map_or(bytes.len(), |end| end + data);
            at = end;
            return Some(&bytes[data..end]);
        }
    })
}

/// Whether the dictionary just before `stream` (a slice of `bytes`) says `/Type /ObjStm`.
fn is_object_stream_before(bytes: &[u8], stream: &[u8]) -> bool {
    let offset = stream.as_ptr() as usize - bytes.as_ptr() as usize;
    let from = offset.saturating_sub(1024);
    find(&bytes[from..offset], b"ObjStm").is_some()
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack
        .windows(needle.len())
        .position(|window| window == needle)
}

/// Whether `bytes` hold a PDF name (`/Name`, `#xx` escapes resolved) of [`ACTIVE_PDF_NAMES`].
fn has_active_name(bytes: &[u8]) -> bool {
    let mut index = 0;
    while let Some(slash) = bytes[index..].iter().position(|b| *b == b'/') {
        let mut at = index + slash + 1;
        let mut name = Vec::new();
        while let Some(&byte) = bytes.get(at) {
            if byte.is_ascii_whitespace() || b"()<>[]{}/%".contains(&byte) {
                break;
            }
            if byte == b'#'
                && let Some(value) = bytes
                    .get(at + 1..at + 3)
                    .and_then(|hex| std::str::from_utf8(hex).ok())
                    .and_then(|hex| u8::from_str_radix(hex, 16).ok())
            {
                name.push(value);
                at += 3;
                continue;
            }
            name.push(byte);
            at += 1;
        }
        if ACTIVE_PDF_NAMES.contains(&name.as_slice()) {
            return true;
        }
        index = at.max(index + slash + 1);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let image = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x * 40) as u8, (y * 40) as u8, 128])
        });
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    fn reason(result: Result<Clean, Refusal>) -> Msg {
        result.unwrap_err().msg
    }

    #[test]
    fn a_real_png_comes_back_reencoded_without_a_trailing_payload() {
        let mut bytes = png(5, 4);
        let clean_png = clean(FileKind::Png, &bytes).unwrap().bytes;
        bytes.extend_from_slice(b"<html><script>alert(1)</script></html>");
        let cleaned = clean(FileKind::Png, &bytes).unwrap().bytes;
        assert_eq!(cleaned, clean_png);
        assert!(find(&cleaned, b"<script>").is_none());
        let decoded = image::load_from_memory(&cleaned).unwrap();
        assert_eq!((decoded.width(), decoded.height()), (5, 4));
    }

    #[test]
    fn signatures_without_an_image_are_unreadable() {
        let signature = b"\x89PNG\r\n\x1a\n".to_vec();
        assert_eq!(
            reason(clean(FileKind::Png, &signature)),
            Msg::ImageUnreadable
        );
        let mut html = signature.clone();
        html.extend_from_slice(b"<html><body><script>alert(1)</script></body></html>");
        assert_eq!(reason(clean(FileKind::Png, &html)), Msg::ImageUnreadable);
        assert_eq!(
            reason(clean(FileKind::Jpeg, b"\xFF\xD8\xFF\xE0\0\x10JFIF\0")),
            Msg::ImageUnreadable
        );
        assert_eq!(
            reason(clean(FileKind::Webp, b"RIFF\x24\0\0\0WEBPVP8 ")),
            Msg::ImageUnreadable
        );
    }

    #[test]
    fn images_beyond_the_bounds_are_refused_before_decoding() {
        assert_eq!(
            reason(clean(FileKind::Png, &png(MAX_SIDE + 1, 1))),
            Msg::ImageTooManyPixels
        );
        assert_eq!(
            reason(clean(FileKind::Png, &png(1, MAX_SIDE + 1))),
            Msg::ImageTooManyPixels
        );
        // Within each side, past the pixel count.
        assert_eq!(
            reason(clean(FileKind::Png, &png(MAX_SIDE, 5_000))),
            Msg::ImageTooManyPixels
        );
    }

    #[test]
    fn jpeg_metadata_is_dropped() {
        let image = image::RgbImage::from_pixel(8, 8, image::Rgb([200, 10, 10]));
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::Jpeg).unwrap();
        let plain = out.into_inner();
        // An APP1 "Exif" segment with a GPS tag's worth of bytes, right after SOI.
        let payload = b"Exif\0\0GPSLatitude 52.5200 N GPSLongitude 13.4050 E";
        let mut with_exif = plain[..2].to_vec();
        with_exif.extend_from_slice(&[0xFF, 0xE1]);
        with_exif.extend_from_slice(&((payload.len() + 2) as u16).to_be_bytes());
        with_exif.extend_from_slice(payload);
        with_exif.extend_from_slice(&plain[2..]);
        let cleaned = clean(FileKind::Jpeg, &with_exif).unwrap().bytes;
        assert!(find(&cleaned, b"GPSLatitude").is_none());
        assert!(find(&cleaned, b"Exif").is_none());
        assert_eq!(
            image::load_from_memory(&cleaned).unwrap().width(),
            8,
            "still the same picture"
        );
    }

    #[test]
    fn webp_is_reencoded() {
        let image = image::RgbaImage::from_pixel(3, 3, image::Rgba([1, 2, 3, 255]));
        let mut out = Cursor::new(Vec::new());
        image.write_to(&mut out, ImageFormat::WebP).unwrap();
        let cleaned = clean(FileKind::Webp, &out.into_inner()).unwrap().bytes;
        assert_eq!(FileKind::detect(&cleaned), Some(FileKind::Webp));
    }

    const PLAIN_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
        2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

    #[test]
    fn plain_pdfs_pass_unchanged() {
        assert_eq!(clean(FileKind::Pdf, PLAIN_PDF).unwrap().bytes, PLAIN_PDF);
    }

    #[test]
    fn pdfs_with_active_content_are_refused() {
        for active in [
            "/OpenAction << /S /JavaScript /JS (app.alert(1)) >>",
            "/AA << /O 3 0 R >>",
            "/S /Launch /F (calc.exe)",
            "/Names << /EmbeddedFiles 4 0 R >>",
            "/J#61vaScript 5 0 R",
            "/XFA 6 0 R",
            "/RichMedia 7 0 R",
            "/Encrypt 8 0 R",
        ] {
            let pdf = format!("%PDF-1.7\n1 0 obj << /Type /Catalog {active} >> endobj\n%%EOF\n");
            assert_eq!(
                reason(clean(FileKind::Pdf, pdf.as_bytes())),
                Msg::PdfActiveContent,
                "{active}"
            );
        }
        // Names that only start like an active one are fine.
        let pdf = b"%PDF-1.7\n<< /JSX 1 /AAB 2 /Launcher 3 >>\n%%EOF\n";
        assert!(clean(FileKind::Pdf, pdf).is_ok());
    }

    #[test]
    fn active_content_inside_a_compressed_object_stream_is_found() {
        let hidden = miniz_oxide::deflate::compress_to_vec_zlib(
            b"1 0 << /Type /Catalog /OpenAction 2 0 R >> 2 0 << /S /JavaScript /JS (x) >>",
            6,
        );
        let mut pdf =
            b"%PDF-1.7\n3 0 obj << /Type /ObjStm /N 2 /First 8 /Filter /FlateDecode >>\nstream\n"
                .to_vec();
        pdf.extend_from_slice(&hidden);
        pdf.extend_from_slice(b"\nendstream\nendobj\n%%EOF\n");
        assert_eq!(reason(clean(FileKind::Pdf, &pdf)), Msg::PdfActiveContent);
        // The same stream with harmless content passes.
        let harmless = miniz_oxide::deflate::compress_to_vec_zlib(b"1 0 << /Type /Page >>", 6);
        let mut pdf =
            b"%PDF-1.7\n3 0 obj << /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode >>\nstream\n"
                .to_vec();
        pdf.extend_from_slice(&harmless);
        pdf.extend_from_slice(b"\nendstream\nendobj\n%%EOF\n");
        assert!(clean(FileKind::Pdf, &pdf).is_ok());
    }
}
