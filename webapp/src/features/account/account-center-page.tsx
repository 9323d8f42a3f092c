//! Placeholder until the screen is built (issue 4).

import { ComingSoonPage } from '../../app/coming-soon';

export function AccountCenterPage() {
  return <ComingSoonPage screen="accountCenter" />;
}
