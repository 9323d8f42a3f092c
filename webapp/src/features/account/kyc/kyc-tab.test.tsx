import { QueryClient } from '@tanstack/react-query';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getGetAllSettingQueryKey } from '../../../api/generated/common/common';
import { getGetCountryCodeQueryKey, getGetIdentityStatusQueryKey } from '../../../api/generated/kyc/kyc';
import type { IdentityStatus, Submission } from '../../../api/generated/model';
import { toaster } from '../../../lib/toaster';
import { SETTINGS, renderWithProviders } from '../../../test/render';
import { MAX_UPLOAD_BYTES } from './file-check';
import { KycTab } from './kyc-tab';

const COUNTRIES = [
  { code: 'DE', dialCode: '+49', name: 'Germany' },
  { code: 'FR', dialCode: '+33', name: 'France' },
];

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);

function submission(status: Submission['status'], extra: Partial<Submission> = {}): Submission {
  return {
    id: 7,
    status,
    name: 'Erika Mustermann',
    idCard: '*****0129',
    country: 'DE',
    cardType: 'idCard',
    createdAt: Date.UTC(2026, 10, 21, 9, 30),
    ...extra,
  };
}

interface Call {
  path: string;
  body: BodyInit | null | undefined;
}

/** Stubs fetch: `answers[path]` is the envelope's data, or `{ fail: [status, reason, field?] }`. */
function stubFetch(answers: Record<string, unknown>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      calls.push({ path, body: init?.body });
      const answer = answers[path] as { fail?: [number, string, string?] } | undefined;
      if (answer === undefined) throw new TypeError(`fetch failed: ${path}`);
      if (answer && typeof answer === 'object' && answer.fail) {
        const [status, reason, field] = answer.fail;
        return new Response(JSON.stringify({ code: status, msg: `refused: ${reason}`, data: { reason, field } }), { status });
      }
      return new Response(JSON.stringify({ code: 200, msg: 'ok', data: answer }), { status: 200 });
    }),
  );
  return calls;
}

function renderTab(status: IdentityStatus) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(getGetAllSettingQueryKey(), SETTINGS);
  queryClient.setQueryData(getGetCountryCodeQueryKey(), COUNTRIES);
  queryClient.setQueryData(getGetIdentityStatusQueryKey('coin'), status);
  renderWithProviders(<KycTab />, queryClient);
  return queryClient;
}

const basicStep = () => screen.getByRole('region', { name: 'Basic verification' });
const advancedStep = () => screen.getByRole('region', { name: 'Advanced verification' });

beforeEach(() => {
  document.cookie = 'coin-access-token=test-token; path=/';
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

describe('identity verification tab', () => {
  it('starts with the basic form and advanced verification locked', () => {
    stubFetch({});
    renderTab({ level: 0 });
    expect(screen.getByRole('heading', { level: 2, name: 'Identity verification' })).toBeTruthy();
    expect(screen.getByText('Unverified')).toBeTruthy();
    expect(within(basicStep()).getByText('Not submitted')).toBeTruthy();
    expect(within(basicStep()).getByRole('form', { name: 'Personal information' })).toBeTruthy();
    expect(within(advancedStep()).getByText('Complete basic verification first')).toBeTruthy();
    expect(within(advancedStep()).queryByRole('button', { name: /Choose file/ })).toBeNull();
    const steps = screen.getByRole('list', { name: 'Verification steps' });
    expect(within(steps).getAllByRole('listitem')[0]?.getAttribute('aria-current')).toBe('step');
  });

  it('checks the required fields with the wasm core before calling', async () => {
    const calls = stubFetch({});
    renderTab({ level: 0 });
    fireEvent.click(within(basicStep()).getByRole('button', { name: 'Submit' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Please complete all required (*) fields');
    const name = screen.getByRole('textbox', { name: 'Full name' });
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getAllByText('This field is required.')).toHaveLength(4);
    expect(calls.filter((c) => c.path.endsWith('/coin/member/verified'))).toHaveLength(0);

    // A malformed ID number is a field error only.
    fireEvent.change(name, { target: { value: 'Erika Mustermann' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'ID number' }), { target: { value: 'no way!' } });
    fireEvent.click(within(basicStep()).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Please enter a valid ID card or passport number.')).toBeTruthy();
  });

  it('sends the form and shows a server error under its field', async () => {
    const calls = stubFetch({ '/api/coin/coin/member/verified': { fail: [400, 'invalid_field', 'idCard'] } });
    renderTab({ level: 0 });
    fireEvent.change(screen.getByRole('textbox', { name: 'Full name' }), { target: { value: ' Erika Mustermann ' } });
    fireEvent.change(screen.getByRole('textbox', { name: 'ID number' }), { target: { value: 'T22000129' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Passport' }));
    const country = screen.getByRole('combobox', { name: 'Country / region' });
    fireEvent.click(country);
    fireEvent.change(country, { target: { value: 'fra' } });
    const option = await screen.findByRole('option', { name: 'France' });
    expect(screen.queryByRole('option', { name: 'Germany' })).toBeNull();
    fireEvent.click(option);
    await waitFor(() => expect((country as HTMLInputElement).value).toBe('France'));

    fireEvent.click(within(basicStep()).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('refused: invalid_field')).toBeTruthy();
    const sent = calls.find((c) => c.path === '/api/coin/coin/member/verified');
    expect(JSON.parse(String(sent?.body))).toEqual({ name: 'Erika Mustermann', idCard: 'T22000129', country: 'FR', cardType: 'passport' });
    expect(screen.getByRole('textbox', { name: 'ID number' }).getAttribute('aria-invalid')).toBe('true');
  });

  it('shows a submission under review with its details and keeps advanced locked', () => {
    stubFetch({});
    renderTab({ level: 0, basic: submission('review') });
    expect(within(basicStep()).getByText('Under review', { selector: 'span' })).toBeTruthy();
    expect(within(basicStep()).getByText('*****0129')).toBeTruthy();
    expect(within(basicStep()).getByText('Germany')).toBeTruthy();
    expect(within(basicStep()).queryByRole('form')).toBeNull();
    expect(within(advancedStep()).getByText(/under review\. You can start advanced verification/)).toBeTruthy();
  });

  it('shows the reason of a failed submission and offers to resubmit', () => {
    stubFetch({});
    renderTab({ level: 0, basic: submission('failed', { reason: 'The name does not match the document.' }) });
    expect(within(basicStep()).getByText('Failed')).toBeTruthy();
    expect(within(basicStep()).getByText('Reason: The name does not match the document.')).toBeTruthy();
    fireEvent.click(within(basicStep()).getByRole('button', { name: 'Resubmit' }));
    expect((screen.getByRole('textbox', { name: 'Full name' }) as HTMLInputElement).value).toBe('Erika Mustermann');
    expect((screen.getByRole('textbox', { name: 'ID number' }) as HTMLInputElement).value).toBe('');
    fireEvent.click(within(basicStep()).getByRole('button', { name: 'Cancel' }));
    expect(within(basicStep()).queryByRole('form')).toBeNull();
  });

  it('checks each photo in the browser, uploads it, and submits the three file ids', async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    let nextId = 40;
    const calls = stubFetch({
      '/api/common/upload/OSS': null,
      '/api/user/uploadKYC': submission('review'),
    });
    // The upload answers a new id each time.
    const fetchMock = vi.mocked(fetch);
    const base = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (url, init) => {
      if (String(url).startsWith('/api/common/upload/OSS')) {
        calls.push({ path: '/api/common/upload/OSS', body: init?.body });
        nextId += 1;
        return new Response(JSON.stringify({ code: 200, msg: 'ok', data: { fileId: nextId, contentType: 'image/png', size: 16, url: '/x' } }));
      }
      return base(url, init);
    });
    renderTab({ level: 1, basic: submission('passed') });
    expect(within(basicStep()).getByText('Passed')).toBeTruthy();
    expect(screen.getByText('Basic verified')).toBeTruthy();

    // The file input is hidden behind the slot's button (which opens its picker).
    const input = (slot: string) => screen.getByRole('group', { name: slot }).querySelector('input[type=file]')!;
    const choose = (slot: string, file: File) => fireEvent.change(input(slot), { target: { files: [file] } });

    // Too large and not an image: refused before any upload.
    choose('Front of the document', new File([PNG, new Uint8Array(MAX_UPLOAD_BYTES)], 'big.png', { type: 'image/png' }));
    expect(await within(screen.getByRole('group', { name: 'Front of the document' })).findByText('The file is larger than 5 MB.')).toBeTruthy();
    choose('Front of the document', new File(['GIF89a-not-a-png'], 'photo.png', { type: 'image/png' }));
    expect(await screen.findByText('Use a JPG, PNG, WebP or PDF file.')).toBeTruthy();
    expect(calls.filter((c) => c.path === '/api/common/upload/OSS')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Upload all three photos to continue.');

    for (const slot of ['Front of the document', 'Back of the document', 'Selfie holding the document']) {
      choose(slot, new File([PNG], 'id.png', { type: 'image/png' }));
      const group = screen.getByRole('group', { name: slot });
      expect(await within(group).findByText('Uploaded')).toBeTruthy();
      expect(within(group).getByRole('img', { name: `Preview: ${slot}` }).getAttribute('src')).toBe('blob:preview');
    }
    const uploads = calls.filter((c) => c.path === '/api/common/upload/OSS');
    expect(uploads).toHaveLength(3);
    expect(uploads[0]?.body).toBeInstanceOf(FormData);
    expect((uploads[0]?.body as FormData).get('file')).toBeInstanceOf(File);

    fireEvent.click(screen.getByRole('button', { name: 'Submit for review' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/user/uploadKYC')).toBe(true));
    const sent = calls.find((c) => c.path === '/api/user/uploadKYC');
    expect(JSON.parse(String(sent?.body))).toEqual({ frontFileId: 41, backFileId: 42, holdFileId: 43 });
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Advanced verification submitted. We will review it shortly.' }));
  });

  it("shows the server's refusal of a file in its own words, without a retry", async () => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => {} }));
    stubFetch({ '/api/common/upload/OSS': { fail: [415, 'image_unreadable', 'file'] } });
    renderTab({ level: 1, basic: submission('passed') });
    const group = screen.getByRole('group', { name: 'Front of the document' });
    fireEvent.change(group.querySelector('input[type=file]')!, { target: { files: [new File([PNG], 'id.png', { type: 'image/png' })] } });
    expect(await within(group).findByText('refused: image_unreadable')).toBeTruthy();
    expect(within(group).queryByRole('button', { name: /retry/i })).toBeNull();
  });

  it('shows full verification when both steps passed', () => {
    stubFetch({});
    renderTab({ level: 2, basic: submission('passed'), advanced: submission('passed', { id: 8 }) });
    expect(screen.getByText('Fully verified')).toBeTruthy();
    expect(within(advancedStep()).getByText('Your identity is fully verified.')).toBeTruthy();
    expect(screen.getByRole('list', { name: 'Verification steps' }).querySelector('[aria-current]')).toBeNull();
  });
});
