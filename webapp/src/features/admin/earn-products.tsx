/**
 * The operator's earn products (`/admin?queue=earn`): every product, whatever its state
 * (`POST /api/admin/earn/products`), with its rate, term, quota sold, window and state; create and
 * edit in a form (a changed rate is a new version), pause, resume, end (after a confirmation), and
 * run the daily payouts now.
 *
 * @module
 */

import { Badge, Box, Button, Flex, HStack, Heading, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getAdminListEarnProductsQueryKey,
  useAdminCreateEarnProduct,
  useAdminEndEarnProduct,
  useAdminListEarnProducts,
  useAdminPauseEarnProduct,
  useAdminResumeEarnProduct,
  useAdminRunEarnPayouts,
  useAdminUpdateEarnProduct,
} from '../../api/generated/admin-earn/admin-earn';
import type { ProductInput, ProductView } from '../../api/generated/model';
import { SILENT, failure } from '../../lib/api-calls';
import { fractionToPercent } from '../../lib/decimal-math';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { type ProductDraft, ProductFormDialog, draftOf, emptyDraft } from './earn-form';

const STATUS_PALETTE = { scheduled: 'blue', open: 'green', paused: 'orange', ended: 'gray' } as const;

/** `YYYY-MM-DD` in UTC. */
function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

type Editing = { mode: 'create'; draft: ProductDraft } | { mode: 'edit'; product: ProductView } | null;

export function EarnProducts() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useAdminListEarnProducts({ pageSize: 100 });
  const create = useAdminCreateEarnProduct({ request: SILENT });
  const update = useAdminUpdateEarnProduct({ request: SILENT });
  const pause = useAdminPauseEarnProduct({ request: SILENT });
  const resume = useAdminResumeEarnProduct({ request: SILENT });
  const end = useAdminEndEarnProduct({ request: SILENT });
  const run = useAdminRunEarnPayouts({ request: SILENT });
  const [editing, setEditing] = useState<Editing>(null);
  const refresh = () => invalidateOperations(queryClient, [getAdminListEarnProductsQueryKey()]);

  const save = async (input: ProductInput) => {
    try {
      if (editing?.mode === 'edit') await update.mutateAsync({ id: editing.product.id, data: input });
      else await create.mutateAsync({ data: input });
      toaster.create({ type: 'success', title: t('earn.admin.saved') });
      setEditing(null);
      void refresh();
      return null;
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      return { message: info.message, ...(info.field ? { field: info.field } : {}) };
    }
  };

  const act = async (call: () => Promise<unknown>) => {
    try {
      await call();
      toaster.create({ type: 'success', title: t('earn.admin.saved') });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    }
    void refresh();
  };

  const runPayouts = async () => {
    try {
      const result = await run.mutateAsync();
      toaster.create({ type: 'success', title: t('earn.admin.ran', { payouts: result.payouts, matured: result.matured }) });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    }
  };

  return (
    <Stack gap="4">
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Heading as="h2" size="md">
          {t('earn.admin.title')}
        </Heading>
        <HStack gap="2" wrap="wrap">
          <Button size="sm" variant="outline" loading={run.isPending} onClick={() => void runPayouts()}>
            {t('earn.admin.runPayouts')}
          </Button>
          <Button size="sm" colorPalette="brand" onClick={() => setEditing({ mode: 'create', draft: emptyDraft(Date.now()) })}>
            {t('earn.admin.create')}
          </Button>
        </HStack>
      </Flex>
      {!list.data ? (
        list.isError ? (
          <Stack role="alert" align="start" gap="2">
            <Text>{t('earn.loadFailed')}</Text>
            <Button size="sm" variant="outline" onClick={() => void list.refetch()}>
              {t('earn.retry')}
            </Button>
          </Stack>
        ) : (
          <Spinner />
        )
      ) : list.data.records.length === 0 ? (
        <Text color="fg.muted">{t('earn.admin.empty')}</Text>
      ) : (
        <Box overflowX="auto" borderWidth="1px" rounded="lg">
          <Table.Root size="sm">
            <Table.Header>
              <Table.Row bg="bg.subtle">
                {(['id', 'name', 'kind', 'rate', 'term', 'sold', 'window', 'status', 'actions'] as const).map((column) => (
                  <Table.ColumnHeader key={column} whiteSpace="nowrap" color="fg.muted" fontWeight="medium">
                    {t(`earn.admin.columns.${column}`)}
                  </Table.ColumnHeader>
                ))}
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {list.data.records.map((product) => (
                <Table.Row key={product.id}>
                  <Table.Cell>{product.id}</Table.Cell>
                  <Table.Cell minW="40">
                    <Text fontWeight="medium">{product.name}</Text>
                    <Text fontSize="xs" color="fg.muted">
                      {product.coin.toUpperCase()}
                      {product.rewardCoin !== product.coin ? ` → ${product.rewardCoin.toUpperCase()}` : ''}
                    </Text>
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {t(`earn.admin.kinds.${product.kind}`)}
                    {product.tab ? ` · ${t(`earn.finance.tabs.${product.tab}`)}` : ''}
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {fractionToPercent(product.rate)}% {product.rateBasis === 'apr' ? t('earn.admin.fields.aprBasis') : t('earn.admin.fields.daily')}
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{product.flexible ? t('earn.product.flexible') : t('earn.product.days', { days: product.lockDays })}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {product.soldAmount} / {product.subscriAmount} ({product.projectProgress}%)
                  </Table.Cell>
                  <Table.Cell whiteSpace="nowrap">
                    {day(product.startTime)} – {day(product.endTime)}
                  </Table.Cell>
                  <Table.Cell>
                    <Badge colorPalette={STATUS_PALETTE[product.status]} variant="surface">
                      {t(`earn.status.${product.status}`)}
                    </Badge>
                  </Table.Cell>
                  <Table.Cell>
                    <HStack gap="1">
                      <Button size="xs" variant="outline" onClick={() => setEditing({ mode: 'edit', product })}>
                        {t('earn.admin.edit')}
                      </Button>
                      {product.status === 'paused' ? (
                        <Button size="xs" variant="outline" onClick={() => void act(() => resume.mutateAsync({ id: product.id }))}>
                          {t('earn.admin.resume')}
                        </Button>
                      ) : (
                        product.status !== 'ended' && (
                          <Button size="xs" variant="outline" onClick={() => void act(() => pause.mutateAsync({ id: product.id }))}>
                            {t('earn.admin.pause')}
                          </Button>
                        )
                      )}
                      {product.status !== 'ended' && (
                        <Button
                          size="xs"
                          variant="outline"
                          colorPalette="red"
                          onClick={() => {
                            if (window.confirm(t('earn.admin.endConfirm'))) void act(() => end.mutateAsync({ id: product.id }));
                          }}
                        >
                          {t('earn.admin.end')}
                        </Button>
                      )}
                    </HStack>
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Box>
      )}
      {editing && (
        <ProductFormDialog
          key={editing.mode === 'edit' ? editing.product.id : 'new'}
          title={editing.mode === 'edit' ? `${t('earn.admin.edit')} #${editing.product.id}` : t('earn.admin.create')}
          initial={editing.mode === 'edit' ? draftOf(editing.product) : editing.draft}
          onSave={save}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
