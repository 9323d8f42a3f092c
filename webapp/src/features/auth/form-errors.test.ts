import { describe, expect, it } from 'vitest';
import { i18n } from '../../i18n';
import { ApiError } from '../../lib/api-client';
import { accountError, callErrors, errorReason } from './form-errors';

const t = i18n.t.bind(i18n);

function refused(msg: string, reason: string, field?: string) {
  return new ApiError('api', msg, 400, 400, { code: 400, msg, data: { reason, field } });
}

describe('accountError', () => {
  it('needs an account, checks e-mail addresses with wasm-core and leaves phone numbers to the server', () => {
    expect(accountError(t, '  ')).toBe('This field is required.');
    expect(accountError(t, 'jane@example.com')).toBeUndefined();
    expect(accountError(t, ' jane@example.com ')).toBeUndefined();
    expect(accountError(t, 'jane@')).toBe('Please enter a valid email address.');
    expect(accountError(t, 'jane')).toBe('Please enter a valid email address.');
    expect(accountError(t, '+49 151 2345678')).toBeUndefined();
    expect(accountError(t, '(030) 123-45.67')).toBeUndefined();
  });
});

describe('callErrors', () => {
  it('puts a message under the field the server names, when the form has it', () => {
    expect(callErrors(t, refused('Wrong code', 'invalid_code', 'code'), ['account', 'code'])).toEqual({ fields: { code: 'Wrong code' } });
  });

  it('puts anything else on the form: no field, a field the form lacks, a network failure', () => {
    expect(callErrors(t, refused('Incorrect account or password', 'invalid_credentials'), ['account'])).toEqual({
      fields: {},
      form: 'Incorrect account or password',
    });
    expect(callErrors(t, refused('Bad', 'invalid_field', 'deviceName'), ['account'])).toEqual({ fields: {}, form: 'Bad' });
    expect(callErrors(t, new ApiError('network', 'Network error. Please check your connection.'), ['account'])).toEqual({
      fields: {},
      form: 'Network error. Please check your connection.',
    });
  });

  it('reads the reason of a refusal', () => {
    expect(errorReason(refused('Enter the code', 'totp_required', 'totpCode'))).toBe('totp_required');
    expect(errorReason(new Error('x'))).toBeUndefined();
  });
});
