/**
 * `key=records`: deposit history, withdrawal history, transfers and bills as tabs; the tab lives in
 * the URL (`&tab=`), so a reload or a shared link opens the same list.
 *
 * @module
 */

import { Stack, Tabs } from '@chakra-ui/react';
import type { JSX } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ScreenHeader } from '../components/frame';
import { RECORD_TABS, type RecordTab, parseRecordTab } from '../lib/screens';
import { Bills } from './bills';
import { DepositHistory, WithdrawalHistory } from './review-history';
import { TransferHistory } from './transfer-history';

const LISTS: Record<RecordTab, () => JSX.Element> = {
  deposits: DepositHistory,
  withdrawals: WithdrawalHistory,
  transfers: TransferHistory,
  bills: Bills,
};

export function RecordsScreen() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const tab = parseRecordTab(search.get('tab'));
  return (
    <Stack gap="0">
      <ScreenHeader title={t('funds.screens.records')} description={t('funds.records.description')} />
      <Tabs.Root
        value={tab}
        onValueChange={(details) => {
          const params = new URLSearchParams(search);
          params.set('tab', details.value);
          setSearch(params, { replace: true });
        }}
        variant="line"
        lazyMount
        unmountOnExit
      >
        <Tabs.List aria-label={t('funds.records.listsLabel')} maxW="full" overflowX="auto" mb="4">
          {RECORD_TABS.map((value) => (
            <Tabs.Trigger key={value} value={value} whiteSpace="nowrap" flexShrink={0}>
              {t(`funds.records.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {RECORD_TABS.map((value) => {
          const List = LISTS[value];
          return (
            <Tabs.Content key={value} value={value} p="0">
              <List />
            </Tabs.Content>
          );
        })}
      </Tabs.Root>
    </Stack>
  );
}

/** One list on its own page (the wallet's history and bills pages), under its heading. */
export function RecordPage({ tab }: { tab: RecordTab }) {
  const { t } = useTranslation();
  const List = LISTS[tab];
  return (
    <Stack gap="0">
      <ScreenHeader title={t(`funds.records.${tab}Title`)} description={t(`funds.records.${tab}Hint`)} />
      <List />
    </Stack>
  );
}
