/**
 * The platform config script (`/platform/dev/config.js`), loaded before the app mounts. It sets
 * `window.__PLATFORM_CONFIG__`; empty base URLs mean the page's own origin.
 *
 * @module
 */

/** What the platform script provides. */
export interface PlatformConfig {
  siteName: string;
  /** API origin, e.g. `https://api.example.com`; empty for the page's origin. */
  apiBaseUrl: string;
  /** WebSocket origin, e.g. `wss://ws.example.com`; empty for the page's origin. */
  wsBaseUrl: string;
  /** Path prefix segment `{head}` of some API paths. */
  apiHead: string;
  /** Where phones are sent from the trade page; empty when there is no mobile site. */
  mobileSiteUrl: string;
}

declare global {
  interface Window {
    __PLATFORM_CONFIG__?: Partial<PlatformConfig>;
  }
}

/** Path of the platform config script. */
export const PLATFORM_CONFIG_SRC = '/platform/dev/config.js';

const DEFAULT_CONFIG: PlatformConfig = {
  siteName: 'Kestrel Exchange',
  apiBaseUrl: '',
  wsBaseUrl: '',
  apiHead: 'coin',
  mobileSiteUrl: '',
};

let current: PlatformConfig = { ...DEFAULT_CONFIG };

/** The platform config in effect (defaults until the script has loaded). */
export function getPlatformConfig(): PlatformConfig {
  return current;
}

/** Replaces the config in effect (used by startup and tests). */
export function setPlatformConfig(config: Partial<PlatformConfig>): PlatformConfig {
  current = normalize(config);
  return current;
}

function normalize(config: Partial<PlatformConfig> | undefined): PlatformConfig {
  const pick = (key: keyof PlatformConfig): string => {
    const value = config?.[key];
    return typeof value === 'string' ? value.trim() : DEFAULT_CONFIG[key];
  };
  return {
    siteName: pick('siteName') || DEFAULT_CONFIG.siteName,
    apiBaseUrl: pick('apiBaseUrl').replace(/\/+$/, ''),
    wsBaseUrl: pick('wsBaseUrl').replace(/\/+$/, ''),
    apiHead: pick('apiHead'),
    mobileSiteUrl: pick('mobileSiteUrl'),
  };
}

/**
 * Evaluates the platform script by adding it to the page and waits for it. A script that fails to
 * load leaves the defaults in place (logged), so the app still mounts against its own origin.
 */
export function loadPlatformConfig(src: string = PLATFORM_CONFIG_SRC): Promise<PlatformConfig> {
  return new Promise((resolve) => {
    const script = document.createElement('script');
    script.src = src;
    script.async = true;
    script.onload = () => resolve(setPlatformConfig(window.__PLATFORM_CONFIG__ ?? {}));
    script.onerror = () => {
      console.error(`Platform config ${src} could not be loaded; using defaults.`);
      resolve(setPlatformConfig(window.__PLATFORM_CONFIG__ ?? {}));
    };
    document.head.appendChild(script);
  });
}

/** The WebSocket origin: the configured one, else `ws://` / `wss://` beside the page. */
export function wsOrigin(config: PlatformConfig = current, location: Location = window.location): string {
  if (config.wsBaseUrl) return config.wsBaseUrl;
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}`;
}
