/**
 * A browser wallet for the e2e suite: `window.ethereum` (EIP-1193) injected into the page with
 * `addInitScript`, answering `eth_requestAccounts` with a fixed test account and `personal_sign`
 * with a real secp256k1 signature (EIP-191) made here in Node by `@noble/curves` and
 * `@noble/hashes` — what MetaMask would answer, without the extension.
 *
 * @module
 */

import type { Page } from '@playwright/test';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';

/** The test wallet's private key (also the backend's HTTP tests' key: 32 bytes of 0x42). */
export const WALLET_KEY = new Uint8Array(32).fill(0x42);

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** The EIP-55 checksummed address of `key`. */
export function addressOf(key: Uint8Array): string {
  const lower = hex(keccak_256(secp256k1.getPublicKey(key, false).slice(1)).slice(12));
  const hash = hex(keccak_256(new TextEncoder().encode(lower)));
  return `0x${Array.from(lower, (c, i) => (parseInt(hash[i]!, 16) >= 8 ? c.toUpperCase() : c)).join('')}`;
}

/** `personal_sign` of `message` (bytes) by `key`: `0x`, r, s and v (27 or 28). */
export function personalSign(key: Uint8Array, message: Uint8Array): string {
  const prefix = new TextEncoder().encode(`\x19Ethereum Signed Message:\n${message.length}`);
  const digest = keccak_256(new Uint8Array([...prefix, ...message]));
  // `recovered`: the recovery bit, then r and s (low s, RFC 6979).
  const signed = secp256k1.sign(digest, key, { prehash: false, format: 'recovered' });
  return `0x${hex(signed.slice(1))}${(27 + signed[0]!).toString(16)}`;
}

/** What the page's wallet was asked, in order. */
export type WalletLog = { method: string; params: unknown[] }[];

/** Gives `page` a wallet holding `key`; returns the log of its requests. */
export async function injectWallet(page: Page, key: Uint8Array = WALLET_KEY): Promise<WalletLog> {
  const log: WalletLog = [];
  const account = addressOf(key).toLowerCase();
  await page.exposeFunction('__e2eWalletRequest', (method: string, params: unknown[]) => {
    log.push({ method, params });
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [account];
    if (method === 'personal_sign') {
      const [data, address] = params as [string, string];
      if (address.toLowerCase() !== account) throw new Error('unknown account');
      const bytes = Uint8Array.from((data.slice(2).match(/../g) ?? []).map((pair) => parseInt(pair, 16)));
      return personalSign(key, bytes);
    }
    throw new Error(`unsupported method ${method}`);
  });
  await page.addInitScript(() => {
    const call = (window as unknown as { __e2eWalletRequest: (method: string, params: unknown[]) => Promise<unknown> }).__e2eWalletRequest;
    (window as unknown as { ethereum: unknown }).ethereum = {
      request: ({ method, params }: { method: string; params?: unknown[] }) => call(method, params ?? []),
    };
  });
  return log;
}
