/**
 * The user's invitation code and link (`<origin>/i&<code>`), each with a copy button.
 *
 * @module
 */

import { Box, Code, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { CopyButton } from '../components/copy-button';

/** The invitation link of `inviteCode` on this site. */
export function inviteLink(inviteCode: string, origin: string = window.location.origin): string {
  return `${origin}/i&${inviteCode}`;
}

function Row({ label, value, copyLabel, mono = false }: { label: string; value: string; copyLabel: string; mono?: boolean }) {
  return (
    <Stack gap="1.5">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Flex align="center" gap="2" bg="bg.subtle" borderWidth="1px" rounded="lg" ps="3" pe="1" py="1" minW="0">
        <Box flex="1" minW="0">
          {mono ? (
            <Code variant="plain" bg="transparent" fontSize="md" fontWeight="semibold" letterSpacing="0.08em" px="0">
              {value}
            </Code>
          ) : (
            <Text fontSize="sm" truncate title={value}>
              {value}
            </Text>
          )}
        </Box>
        <CopyButton value={value} label={copyLabel} />
      </Flex>
    </Stack>
  );
}

export function InviteDetails({ inviteCode }: { inviteCode: string }) {
  const { t } = useTranslation();
  const link = inviteLink(inviteCode);
  return (
    <Stack gap="4">
      <Row label={t('account.invite.code')} value={inviteCode} copyLabel={t('account.invite.copyCode')} mono />
      <Row label={t('account.invite.link')} value={link} copyLabel={t('account.invite.copyLink')} />
    </Stack>
  );
}
