import { describe, expect, it } from 'vitest';
import { ACCEPT_ATTRIBUTE, MAX_UPLOAD_BYTES, checkUploadFile, fileProblemKey, isImageKind, sniffKind } from './file-check';

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d];
const JPEG = [0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0, 1];
const WEBP = [...'RIFF'].map((c) => c.charCodeAt(0)).concat([0x24, 0, 0, 0], [...'WEBP'].map((c) => c.charCodeAt(0)));
const PDF = [...'%PDF-1.7\n%'].map((c) => c.charCodeAt(0)).concat([0xe2, 0xe3]);

function file(bytes: number[], size = bytes.length, name = 'doc.bin', type = ''): File {
  const padding = new Uint8Array(Math.max(0, size - bytes.length));
  return new File([new Uint8Array(bytes), padding], name, { type });
}

describe('file checks before upload', () => {
  it('recognises JPEG, PNG, WebP and PDF by their first bytes', () => {
    expect(sniffKind(new Uint8Array(JPEG))).toBe('jpeg');
    expect(sniffKind(new Uint8Array(PNG))).toBe('png');
    expect(sniffKind(new Uint8Array(WEBP))).toBe('webp');
    expect(sniffKind(new Uint8Array(PDF))).toBe('pdf');
    // A RIFF file that is not WebP (a WAV), a GIF, text, nothing.
    expect(sniffKind(new Uint8Array([...'RIFF\0\0\0\0WAVE'].map((c) => c.charCodeAt(0))))).toBeNull();
    expect(sniffKind(new Uint8Array([...'GIF89a'].map((c) => c.charCodeAt(0))))).toBeNull();
    expect(sniffKind(new TextEncoder().encode('hello world!'))).toBeNull();
    expect(sniffKind(new Uint8Array())).toBeNull();
  });

  it('accepts the four types up to exactly 5 MB', async () => {
    expect(await checkUploadFile(file(PNG))).toEqual({ ok: true, kind: 'png' });
    expect(await checkUploadFile(file(JPEG, MAX_UPLOAD_BYTES))).toEqual({ ok: true, kind: 'jpeg' });
    expect(await checkUploadFile(file(WEBP, 2048))).toEqual({ ok: true, kind: 'webp' });
    expect(await checkUploadFile(file(PDF, 4096))).toEqual({ ok: true, kind: 'pdf' });
  });

  it('refuses a file over 5 MB before reading it', async () => {
    expect(await checkUploadFile(file(PNG, MAX_UPLOAD_BYTES + 1))).toEqual({ ok: false, problem: 'tooLarge' });
  });

  it('refuses an empty file', async () => {
    expect(await checkUploadFile(file([]))).toEqual({ ok: false, problem: 'empty' });
  });

  it('judges by content, not by the name or the declared type', async () => {
    const renamed = file([...'GIF89a'].map((c) => c.charCodeAt(0)), 64, 'photo.png', 'image/png');
    expect(await checkUploadFile(renamed)).toEqual({ ok: false, problem: 'unsupportedType' });
    const unnamed = file(PNG, 64, 'scan', '');
    expect(await checkUploadFile(unnamed)).toEqual({ ok: true, kind: 'png' });
  });

  it('previews images only', () => {
    expect(isImageKind('jpeg')).toBe(true);
    expect(isImageKind('png')).toBe(true);
    expect(isImageKind('webp')).toBe(true);
    expect(isImageKind('pdf')).toBe(false);
  });

  it('offers the four types in the file picker', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', 'application/pdf', '.pdf']) expect(ACCEPT_ATTRIBUTE).toContain(type);
  });

  it('translates browser problems and server reasons alike', () => {
    expect(fileProblemKey('tooLarge')).toBe('kyc.upload.tooLarge');
    expect(fileProblemKey('file_too_large')).toBe('kyc.upload.tooLarge');
    expect(fileProblemKey('unsupportedType')).toBe('kyc.upload.unsupportedType');
    expect(fileProblemKey('unsupported_file_type')).toBe('kyc.upload.unsupportedType');
    expect(fileProblemKey('empty')).toBe('kyc.upload.empty');
    expect(fileProblemKey('internal')).toBe('kyc.upload.failed');
  });
});
