/**
 * A button that copies a value (toast 'Copy successful' / 'Copy Failed!').
 *
 * @module
 */

import { Button, IconButton } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../lib/copy';
import { CopyIcon } from './icons';

/** `label` names what is copied ("Copy address"); `compact` shows only the icon. */
export function CopyButton({ value, label, compact = true }: { value: string; label: string; compact?: boolean }) {
  const { t } = useTranslation();
  if (compact) {
    return (
      <IconButton size="xs" variant="ghost" aria-label={label} title={label} onClick={() => void copyText(value, t)}>
        <CopyIcon />
      </IconButton>
    );
  }
  return (
    <Button size="sm" variant="outline" onClick={() => void copyText(value, t)} aria-label={label} flexShrink={0}>
      <CopyIcon />
      {t('funds.copy.action')}
    </Button>
  );
}
