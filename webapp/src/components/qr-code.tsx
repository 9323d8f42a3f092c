/**
 * A QR code of a text (a deposit address), drawn as one SVG path from the `qrcode` package's module
 * matrix. Always dark modules on white with a quiet zone, in both themes, so every scanner reads it.
 *
 * @module
 */

import { Box } from '@chakra-ui/react';
import { create } from 'qrcode';
import { useMemo } from 'react';

/** Modules of white border around the symbol (the standard asks for 4). */
const QUIET_ZONE = 4;

/** The SVG path of the dark modules and the symbol's size in modules, or `null` for an empty text. */
export function qrPath(text: string): { size: number; path: string } | null {
  if (!text) return null;
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    for (let col = 0; col < modules.size; col += 1) {
      if (modules.get(row, col)) parts.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + QUIET_ZONE * 2, path: parts.join('') };
}

export function QrCode({ value, label, size = '44' }: { value: string; label: string; size?: string }) {
  const symbol = useMemo(() => qrPath(value), [value]);
  return (
    <Box boxSize={size} bg="white" rounded="lg" borderWidth="1px" borderColor="border" p="1" flexShrink={0}>
      {symbol && (
        <svg role="img" aria-label={label} viewBox={`0 0 ${symbol.size} ${symbol.size}`} width="100%" height="100%" shapeRendering="crispEdges">
          <rect width={symbol.size} height={symbol.size} fill="#ffffff" />
          <path d={symbol.path} fill="#0b0e14" />
        </svg>
      )}
    </Box>
  );
}
