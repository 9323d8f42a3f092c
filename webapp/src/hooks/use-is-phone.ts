/**
 * Whether the viewport is phone-sized (narrower than Chakra's `md` breakpoint, 48rem = 768 px):
 * the trade screens then show their order form in a bottom sheet behind a sticky Buy / Sell bar, and
 * lists of orders, positions and holdings as cards instead of tables. Decided by the viewport's width
 * (a media query), never by the user agent; read synchronously on the first render, so a desktop
 * never paints the phone layout first (no layout shift).
 *
 * @module
 */

import { useMediaQuery } from '@chakra-ui/react';

/** The media query of a phone-sized viewport (below `md`). */
export const PHONE_QUERY = '(max-width: 47.99rem)';

/** `true` below 768 px; follows the viewport as it is resized or turned. */
export function useIsPhone(): boolean {
  const [phone] = useMediaQuery([PHONE_QUERY], { ssr: false });
  return phone ?? false;
}
