//! Placeholder until the identity tab is built (issue 4).

export function KycTab() {
  return null;
}
