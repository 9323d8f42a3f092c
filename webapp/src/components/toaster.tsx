/**
 * Renders the app's toast store (`lib/toaster.ts`).
 *
 * @module
 */

import { Toaster as ChakraToaster, Portal, Stack, Toast } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { toaster } from '../lib/toaster';

export function Toaster() {
  const { t } = useTranslation();
  return (
    <Portal>
      <ChakraToaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={{ md: 'sm' }}>
            <Toast.Indicator />
            <Stack gap="1" flex="1" maxWidth="100%">
              {toast.title && <Toast.Title>{toast.title}</Toast.Title>}
              {toast.description && <Toast.Description>{toast.description}</Toast.Description>}
            </Stack>
            <Toast.CloseTrigger aria-label={t('common.close')} />
          </Toast.Root>
        )}
      </ChakraToaster>
    </Portal>
  );
}
