/**
 * sealText (WebCrypto) against wasm-core's cipher vectors, the ones the native core passes too.
 *
 * @module
 */

import { describe, expect, it } from 'vitest';
import vectors from '../../../wasm-core/tests/cipher/seal-text.json';
import { sealText } from './seal';

type Case = { name: string; args: string[]; expect?: string; error?: unknown };

describe('sealText (WebCrypto)', () => {
  for (const testCase of (vectors as { cases: Case[] }).cases) {
    it(testCase.name, async () => {
      const [key = '', nonce = '', aad = '', plaintext = ''] = testCase.args;
      const sealed = sealText(key, nonce, aad, plaintext);
      if (testCase.error !== undefined) await expect(sealed).rejects.toEqual(testCase.error);
      else await expect(sealed).resolves.toBe(testCase.expect);
    });
  }
});
