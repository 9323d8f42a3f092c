//! Placeholder until the market screen is built (issue 5).

import { ComingSoonPage } from '../../app/coming-soon';

export function MarketPage() {
  return <ComingSoonPage screen="market" />;
}
