/**
 * Local storage under the product's `coin_web-` prefix; failures (private mode, quota) are ignored.
 *
 * @module
 */

/** Prefix of every key this app writes to local storage. */
export const STORAGE_PREFIX = 'coin_web-';

/** Reads `coin_web-<key>`, or `null` when absent or storage is unavailable. */
export function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(STORAGE_PREFIX + key);
  } catch {
    return null;
  }
}

/** Writes `coin_web-<key>`. */
export function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(STORAGE_PREFIX + key, value);
  } catch {
    // Storage can be full or disabled; the setting then lasts for this page only.
  }
}

/** Removes `coin_web-<key>`. */
export function removeStored(key: string): void {
  try {
    window.localStorage.removeItem(STORAGE_PREFIX + key);
  } catch {
    // See writeStored.
  }
}
