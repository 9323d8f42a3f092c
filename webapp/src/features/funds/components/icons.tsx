/**
 * Icons of the funds screens (decorative: aria-hidden; the control or text beside them carries the
 * meaning).
 *
 * @module
 */

import { Icon, type IconProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

function make(path: ReactNode, viewBox = '0 0 24 24') {
  return function SvgIcon(props: IconProps) {
    return (
      <Icon aria-hidden="true" focusable={false} {...props}>
        <svg viewBox={viewBox} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          {path}
        </svg>
      </Icon>
    );
  };
}

export const WalletIcon = make(
  <>
    <path d="M19 7V5a2 2 0 0 0-2-2H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2v-3" />
    <path d="M21 9h-5a3 3 0 0 0 0 6h5z" />
    <path d="M16 12h.01" />
  </>,
);
export const DepositIcon = make(<path d="M12 4v12M7 11l5 5 5-5M5 20h14" />);
export const WithdrawIcon = make(<path d="M12 20V8M7 13l5-5 5 5M5 4h14" />);
export const SwapIcon = make(<path d="M7 4L3 8l4 4M3 8h14M17 20l4-4-4-4M21 16H7" />);
export const TransferIcon = make(<path d="M4 7h13l-3-3M20 17H7l3 3" />);
export const RecordsIcon = make(
  <>
    <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
    <path d="M14 3v5h5M9 13h6M9 17h4" />
  </>,
);
export const OrdersIcon = make(
  <>
    <rect x="4" y="3" width="16" height="18" rx="2" />
    <path d="M8 8h8M8 12h8M8 16h5" />
  </>,
);
export const BillIcon = make(
  <>
    <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
    <path d="M9 8h6M9 12h6" />
  </>,
);
export const CopyIcon = make(
  <>
    <rect x="9" y="9" width="12" height="12" rx="2" />
    <path d="M5 15H4a1 1 0 0 1-1-1V4a1 1 0 0 1 1-1h10a1 1 0 0 1 1 1v1" />
  </>,
);
export const EyeIcon = make(
  <>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);
export const EyeOffIcon = make(
  <>
    <path d="M3 3l18 18M10.6 5.1A10.6 10.6 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-3.2 4.1M6.6 6.6C3.9 8.3 2 12 2 12s3.5 7 10 7c1.6 0 3-.4 4.3-1" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2" />
  </>,
);
export const UploadIcon = make(<path d="M12 16V4M7 9l5-5 5 5M5 20h14" />);
export const DownloadIcon = make(<path d="M12 4v12M7 11l5 5 5-5M5 20h14" />);
export const InfoIcon = make(
  <>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 11v5M12 8h.01" />
  </>,
);
export const ChevronLeftIcon = make(<path d="M15 6l-6 6 6 6" />);
export const ChevronRightIcon = make(<path d="M9 6l6 6-6 6" />);
export const RefreshIcon = make(
  <>
    <path d="M20 11a8 8 0 0 0-14.9-3.9L3 9" />
    <path d="M3 4v5h5M4 13a8 8 0 0 0 14.9 3.9L21 15" />
    <path d="M21 20v-5h-5" />
  </>,
);
export const LockIcon = make(
  <>
    <rect x="5" y="11" width="14" height="10" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </>,
);
export const CandlesIcon = make(
  <>
    <path d="M7 3v3M7 16v5M17 3v6M17 17v4" />
    <rect x="5" y="6" width="4" height="10" rx="1" />
    <rect x="15" y="9" width="4" height="8" rx="1" />
  </>,
);
export const SearchIcon = make(
  <>
    <circle cx="11" cy="11" r="7" />
    <path d="M20 20l-3.5-3.5" />
  </>,
);
export const ContractIcon = make(<path d="M3 17l6-6 4 4 8-8M15 7h6v6" />);
export const EarnIcon = make(<path d="M12 3v18M17 7.5c0-1.9-2.2-3-5-3s-5 1.1-5 3 2.2 2.7 5 3.2 5 1.4 5 3.3-2.2 3.5-5 3.5-5-1.3-5-3.2" />);
export const InvestIcon = make(<path d="M4 19h16M6 16V11M11 16V7M16 16v-4M20 5l-5 5-3-3-6 6" />);
export const GiftIcon = make(<path d="M4 11h16v9H4zM3 7h18v4H3zM12 7v13M12 7c-1.5-3-5-3.5-5-1.5S10 7 12 7zm0 0c1.5-3 5-3.5 5-1.5S14 7 12 7z" />);
