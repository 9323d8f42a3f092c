/**
 * The unread badge of the support-chat entries (footer, side menu): the operators' messages the
 * customer has not read, once the chat has been loaded.
 *
 * @module
 */

import { Badge } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useChatUnread } from '../../lib/chat-store';

export function ChatBadge() {
  const { t } = useTranslation();
  const unread = useChatUnread();
  if (unread <= 0) return null;
  return (
    <Badge colorPalette="red" variant="solid" rounded="full" size="sm" ms="1.5" aria-label={t('chat.unread', { count: unread })}>
      {unread > 99 ? '99+' : unread}
    </Badge>
  );
}
