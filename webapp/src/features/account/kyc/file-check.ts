/**
 * Checks a document photo in the browser before it is uploaded, with the server's own limits
 * (5 MB; JPEG, PNG, WebP or PDF). The type is read from the file's first bytes, as the server does,
 * so a renamed file is refused here instead of after a wasted upload.
 *
 * @module
 */

/** The largest accepted file, in bytes (5 MB). */
export const MAX_UPLOAD_BYTES = 5 * 1024 * 1024;

/** The accepted kinds of file. */
export type UploadKind = 'jpeg' | 'png' | 'webp' | 'pdf';

/** MIME type of each kind. */
export const KIND_MIME: Record<UploadKind, string> = {
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** The file picker's `accept` attribute. */
export const ACCEPT_ATTRIBUTE = `${Object.values(KIND_MIME).join(',')},.jpg,.jpeg,.png,.webp,.pdf`;

/** Why a file cannot be uploaded. */
export type FileProblem = 'empty' | 'tooLarge' | 'unsupportedType';

/** The outcome of a check: the kind of an acceptable file, or the problem. */
export type FileCheck = { ok: true; kind: UploadKind } | { ok: false; problem: FileProblem };

/** The kind of file whose first bytes are `head` (at least 12 bytes are needed), or `null`. */
export function sniffKind(head: Uint8Array): UploadKind | null {
  const starts = (bytes: number[], offset = 0) => bytes.every((byte, i) => head[offset + i] === byte);
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  // "RIFF" <size> "WEBP"
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8)) return 'webp';
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // "%PDF-"
  return null;
}

/** Checks size and type (from the content) of `file`. */
export async function checkUploadFile(file: Blob): Promise<FileCheck> {
  if (file.size === 0) return { ok: false, problem: 'empty' };
  if (file.size > MAX_UPLOAD_BYTES) return { ok: false, problem: 'tooLarge' };
  const head = new Uint8Array(await file.slice(0, 16).arrayBuffer());
  const kind = sniffKind(head);
  return kind ? { ok: true, kind } : { ok: false, problem: 'unsupportedType' };
}

/** Whether a file of `kind` can be previewed as an image. */
export function isImageKind(kind: UploadKind): boolean {
  return kind !== 'pdf';
}

/** The i18n key of a problem (browser check) or of the server's reason for refusing an upload. */
export function fileProblemKey(problem: FileProblem | string): string {
  switch (problem) {
    case 'empty':
      return 'kyc.upload.empty';
    case 'tooLarge':
    case 'file_too_large':
      return 'kyc.upload.tooLarge';
    case 'unsupportedType':
    case 'unsupported_file_type':
      return 'kyc.upload.unsupportedType';
    default:
      return 'kyc.upload.failed';
  }
}
