/**
 * Icons and document illustrations of the identity tab (decorative: aria-hidden; the text beside
 * them carries the meaning).
 *
 * @module
 */

import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

function make(path: ReactNode, viewBox = '0 0 24 24', strokeWidth = 2) {
  return function SvgIcon(props: IconProps) {
    return (
      <Icon aria-hidden="true" focusable={false} {...props}>
        <svg viewBox={viewBox} fill="none" stroke="currentColor" strokeWidth={strokeWidth} strokeLinecap="round" strokeLinejoin="round">
          {path}
        </svg>
      </Icon>
    );
  };
}

export const CheckIcon = make(<path d="M5 12.5l4.5 4.5L19 7.5" />);
export const CrossIcon = make(<path d="M7 7l10 10M17 7L7 17" />);
export const LockIcon = make(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </>,
);
export const HourglassIcon = make(<path d="M7 3h10M7 21h10M8 3c0 5 8 5 8 9s-8 4-8 9M16 3c0 5-8 5-8 9s8 4 8 9" />);
export const UploadIcon = make(<path d="M12 16V4M7 9l5-5 5 5M5 20h14" />);
export const FileIcon = make(
  <>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h4" />
  </>,
);
export const InfoIcon = make(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </>,
);
export const ShieldCheckIcon = make(
  <>
    <path d="M12 3l8 3v6c0 5-3.5 8-8 9-4.5-1-8-4-8-9V6l8-3z" />
    <path d="M8.5 12l2.5 2.5 4.5-5" />
  </>,
);

/** The front of an identity card: photo, name lines. */
export const IdFrontArt = make(
  <>
    <rect x="4" y="10" width="56" height="36" rx="4" />
    <circle cx="20" cy="24" r="5" />
    <path d="M12 38c1.5-5 5-7 8-7s6.5 2 8 7M34 20h18M34 27h18M34 34h11" />
  </>,
  '0 0 64 56',
  2,
);

/** The back of an identity card: stripe, lines and a machine-readable zone. */
export const IdBackArt = make(
  <>
    <rect x="4" y="10" width="56" height="36" rx="4" />
    <path d="M4 17h56M12 25h24M12 31h16M12 39h40" strokeDasharray="2 3" />
  </>,
  '0 0 64 56',
  2,
);

/** A person holding the document next to their face. */
export const SelfieArt = make(
  <>
    <circle cx="22" cy="17" r="7" />
    <path d="M8 50c0-10 6-16 14-16 4 0 7 1.5 9.5 4" />
    <rect x="32" y="30" width="26" height="18" rx="3" />
    <circle cx="40" cy="38" r="3" />
    <path d="M46 36h8M46 41h6" />
  </>,
  '0 0 64 56',
  2,
);
