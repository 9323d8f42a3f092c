/**
 * The coloured badge of a verification state (grey, amber, green, red), with an icon so the state
 * does not depend on colour alone.
 *
 * @module
 */

import { Badge, type BadgeProps } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CrossIcon, HourglassIcon } from './kyc-icons';
import { type KycStatus, STATUS_PALETTE } from './kyc-status';

export function StatusBadge({ status, ...rest }: { status: KycStatus } & BadgeProps) {
  const { t } = useTranslation();
  const Icon = status === 'passed' ? CheckIcon : status === 'failed' ? CrossIcon : status === 'review' ? HourglassIcon : null;
  return (
    <Badge colorPalette={STATUS_PALETTE[status]} variant={status === 'none' ? 'outline' : 'subtle'} size="md" rounded="full" px="2.5" gap="1" flexShrink={0} {...rest}>
      {Icon && <Icon boxSize="3" />}
      {t(`kyc.status.${status}`)}
    </Badge>
  );
}
