/**
 * Display helpers of the account centre: dates in the user's time zone (through wasm-core), a
 * short device description from a user agent, and masked contacts.
 *
 * @module
 */

export { useDateTimeFormatter } from '../../../hooks/use-time-zone';

/** "Chrome · Windows" from a user agent; the parts it cannot tell are left out (empty when none). */
export function describeUserAgent(userAgent: string): string {
  const ua = userAgent || '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\/|Chromium\/|HeadlessChrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : '';
  const system = /Windows/.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/.test(ua)
      ? 'iOS'
      : /Android/.test(ua)
        ? 'Android'
        : /Mac OS X|Macintosh/.test(ua)
          ? 'macOS'
          : /CrOS/.test(ua)
            ? 'ChromeOS'
            : /Linux/.test(ua)
              ? 'Linux'
              : '';
  return [browser, system].filter(Boolean).join(' · ');
}

/** `j***@example.com` / `+49*****123`: enough to recognise one's own contact on screen. */
export function maskContact(value: string): string {
  const at = value.indexOf('@');
  if (at > 0) {
    const name = value.slice(0, at);
    return `${name.slice(0, Math.min(2, name.length - 1) || 1)}***${value.slice(at)}`;
  }
  if (value.length <= 6) return value;
  return `${value.slice(0, 3)}${'*'.repeat(Math.max(3, value.length - 6))}${value.slice(-3)}`;
}
