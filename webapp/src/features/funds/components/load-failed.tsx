/**
 * A read that failed (other than a 401, which logs out): what failed and a retry.
 *
 * @module
 */

import { Alert, Button } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

export function LoadFailed({ title, onRetry }: { title?: string; onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <Alert.Root status="error" rounded="xl" alignItems="center" role="alert">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{title ?? t('funds.loadFailed')}</Alert.Title>
      </Alert.Content>
      <Button size="sm" variant="outline" onClick={onRetry} flexShrink={0}>
        {t('funds.retry')}
      </Button>
    </Alert.Root>
  );
}
