/**
 * The online customer-chat widget: hidden until opened (side menu, footer); for now it says that
 * live chat is coming and offers the support e-mail.
 *
 * @module
 */

import { Box, CloseButton, Flex, Heading, Link, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatIcon, CloseIcon } from '../../components/icons';
import { useSupportEmail } from '../../hooks/use-settings';
import { closeChat, useChatOpen } from './chat-store';

export function SupportChat() {
  const { t } = useTranslation();
  const open = useChatOpen();
  const email = useSupportEmail();
  const titleId = useId();
  if (!open) return null;
  return (
    <Box
      role="dialog"
      aria-labelledby={titleId}
      position="fixed"
      bottom={{ base: '3', md: '6' }}
      right={{ base: '3', md: '6' }}
      w={{ base: 'calc(100vw - 24px)', sm: '360px' }}
      bg="bg.panel"
      borderWidth="1px"
      rounded="xl"
      shadow="2xl"
      zIndex="modal"
      overflow="hidden"
    >
      <Flex align="center" gap="3" px="4" py="3" bg="brand.solid" color="brand.contrast">
        <ChatIcon boxSize="5" />
        <Heading as="h2" id={titleId} fontSize="md" flex="1" color="inherit">
          {t('chat.title')}
        </Heading>
        <CloseButton size="sm" color="inherit" aria-label={t('chat.close')} onClick={closeChat}>
          <CloseIcon />
        </CloseButton>
      </Flex>
      <Stack gap="3" px="4" py="5">
        <Text fontSize="sm">{t('chat.comingSoon')}</Text>
        {email && (
          <Text fontSize="sm" color="fg.muted">
            {t('chat.emailPrefix')}{' '}
            <Link href={`mailto:${email}`} color="brand.fg" fontWeight="medium">
              {email}
            </Link>
          </Text>
        )}
      </Stack>
    </Box>
  );
}
