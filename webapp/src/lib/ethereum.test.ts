import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Eip1193Provider, WalletError, ethereumProvider, personalSign, requestAccount, utf8Hex, walletProblemKey } from './ethereum';

const SIGNATURE = `0x${'ab'.repeat(65)}`;

function provider(answer: (method: string, params?: unknown[]) => unknown): Eip1193Provider & { request: ReturnType<typeof vi.fn> } {
  return { request: vi.fn(async ({ method, params }: { method: string; params?: unknown[] }) => answer(method, params)) };
}

async function problemOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
  } catch (error) {
    return error instanceof WalletError ? error.problem : `not a WalletError: ${String(error)}`;
  }
  return undefined;
}

afterEach(() => {
  delete window.ethereum;
});

describe('the browser wallet', () => {
  it('is missing when the page has no window.ethereum', async () => {
    expect(() => ethereumProvider()).toThrow(WalletError);
    expect(await problemOf(requestAccount())).toBe('noWallet');
    window.ethereum = provider(() => ['0xabc']);
    expect(ethereumProvider()).toBe(window.ethereum);
  });

  it('gives its first account and signs the message as UTF-8 hex for that account', async () => {
    const wallet = provider((method) => (method === 'eth_requestAccounts' ? ['0x2c7536e3605d9c16a7a3d7b1898e529396a65c23'] : SIGNATURE));
    expect(await requestAccount(wallet)).toBe('0x2c7536e3605d9c16a7a3d7b1898e529396a65c23');
    expect(await personalSign('Hé\nNonce: 1', '0xabc', wallet)).toBe(SIGNATURE);
    expect(wallet.request).toHaveBeenLastCalledWith({ method: 'personal_sign', params: ['0x48c3a90a4e6f6e63653a2031', '0xabc'] });
    expect(utf8Hex('Some data')).toBe('0x536f6d652064617461');
  });

  it('turns the wallet refusals into the spec texts', async () => {
    const refusing = (code: number) => provider(() => Promise.reject(Object.assign(new Error('no'), { code })));
    expect(await problemOf(requestAccount(refusing(4001)))).toBe('cancelled');
    expect(await problemOf(personalSign('m', '0xabc', refusing(4100)))).toBe('revoked');
    expect(await problemOf(personalSign('m', '0xabc', refusing(-32603)))).toBe('failed');
    expect(await problemOf(requestAccount(provider(() => [])))).toBe('failed');
    expect(await problemOf(personalSign('m', '0xabc', provider(() => '0x1234')))).toBe('failed');
    expect((['noWallet', 'cancelled', 'revoked', 'failed'] as const).map((problem) => walletProblemKey(problem, 'screen.noWallet'))).toEqual([
      'screen.noWallet',
      'errors.actionCancelled',
      'errors.userRevokedAuthorization',
      'errors.authorizationFailed',
    ]);
  });
});
