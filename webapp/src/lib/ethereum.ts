/**
 * The browser's Ethereum wallet (EIP-1193 `window.ethereum`, e.g. MetaMask) for Sign-In with
 * Ethereum: ask for the account, and have the wallet sign the server's EIP-4361 message with
 * `personal_sign` (EIP-191). The wallet's refusals become a {@link WalletError} whose `problem`
 * names the i18n text to show. Loaded only by the screens that use it.
 *
 * @module
 */

/** The part of an EIP-1193 provider this uses. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

declare global {
  interface Window {
    /** The injected wallet, when the browser has one. */
    ethereum?: Eip1193Provider;
  }
}

/** Why the wallet step failed. */
export type WalletProblem = 'noWallet' | 'cancelled' | 'revoked' | 'failed';

/** The i18n key of each {@link WalletProblem} the spec words (base texts, loaded with the shell). */
export const WALLET_PROBLEM_TEXT: Record<Exclude<WalletProblem, 'noWallet'>, string> = {
  cancelled: 'errors.actionCancelled',
  revoked: 'errors.userRevokedAuthorization',
  failed: 'errors.authorizationFailed',
};

/** The i18n key of `problem`; `noWalletKey` is the calling screen's own text for a missing wallet. */
export function walletProblemKey(problem: WalletProblem, noWalletKey: string): string {
  return problem === 'noWallet' ? noWalletKey : WALLET_PROBLEM_TEXT[problem];
}

/** A failed wallet step. */
export class WalletError extends Error {
  constructor(readonly problem: WalletProblem) {
    super(problem);
    this.name = 'WalletError';
  }
}

/** The provider's refusal as a problem: 4001 the user rejected, 4100 not authorised. */
function problemOf(error: unknown): WalletProblem {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === 4001) return 'cancelled';
  if (code === 4100) return 'revoked';
  return 'failed';
}

/** The injected wallet; a `noWallet` {@link WalletError} when there is none. */
export function ethereumProvider(): Eip1193Provider {
  const provider = typeof window === 'undefined' ? undefined : window.ethereum;
  if (!provider || typeof provider.request !== 'function') throw new WalletError('noWallet');
  return provider;
}

async function call(provider: Eip1193Provider, method: string, params?: unknown[]): Promise<unknown> {
  try {
    return await provider.request(params ? { method, params } : { method });
  } catch (error) {
    throw new WalletError(problemOf(error));
  }
}

/** Asks the wallet for its account (the user may be asked to connect): its address. */
export async function requestAccount(provider: Eip1193Provider = ethereumProvider()): Promise<string> {
  const accounts = await call(provider, 'eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string' || first === '') throw new WalletError('failed');
  return first;
}

/** `message` as `0x` and the hex of its UTF-8 bytes (what `personal_sign` takes). */
export function utf8Hex(message: string): string {
  return `0x${Array.from(new TextEncoder().encode(message), (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** Has the wallet sign `message` for `address` with `personal_sign`: the signature (`0x` r s v). */
export async function personalSign(message: string, address: string, provider: Eip1193Provider = ethereumProvider()): Promise<string> {
  const signature = await call(provider, 'personal_sign', [utf8Hex(message), address]);
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]{130}$/.test(signature)) throw new WalletError('failed');
  return signature;
}

/** Whether `error` is a failed wallet step. */
export function isWalletError(error: unknown): error is WalletError {
  return error instanceof WalletError;
}
