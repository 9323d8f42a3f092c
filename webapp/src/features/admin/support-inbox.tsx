/**
 * The operators' support inbox: the three queues (queued, mine, closed) on the left, the chosen
 * conversation on the right with assign, answer and close. Live over the operators' channel: a new
 * message or a conversation changing state refreshes the queue and the open thread; the channel
 * reconnects after 3 s and everything is read again.
 *
 * @module
 */

import { Badge, Box, Button, Flex, Grid, Stack, Text, Textarea } from '@chakra-ui/react';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAccessToken } from '../../lib/session';
import { SocketLoop } from '../../lib/socket-loop';
import { type InboxQueue, type InboxRow, fetchInbox, fetchOperatorThread, operatorAction, sendAsOperator } from '../../lib/support-api';
import { type ChatConversation, type ChatMessage, PING_MS, RECONNECT_MS, mergeMessages, operatorChannelUrl, readFrame } from '../../lib/support-chat';

const QUEUES: InboxQueue[] = ['queued', 'mine', 'closed'];

function Thread({ id, onChanged, tick }: { id: number; onChanged: () => void; tick: number }) {
  const { t } = useTranslation();
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [conversation, setConversation] = useState<ChatConversation | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    fetchOperatorThread(id).then(
      (thread) => {
        setConversation(thread.conversation);
        setMessages((current) => mergeMessages(current, thread.messages));
        if (thread.conversation.operatorUnread > 0 && thread.conversation.status !== 'closed') {
          operatorAction(id, 'read').then(onChanged, () => undefined);
        }
      },
      () => undefined,
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, tick]);
  const act = (action: 'assign' | 'close') => operatorAction(id, action).then(setConversation, () => undefined).finally(onChanged);
  const answer = () => {
    if (!text.trim()) return;
    setBusy(true);
    sendAsOperator(id, text.trim())
      .then((sent) => {
        setMessages((current) => mergeMessages(current, [sent.message]));
        setConversation(sent.conversation);
        setText('');
        onChanged();
      }, () => undefined)
      .finally(() => setBusy(false));
  };
  const open = conversation?.status !== 'closed';
  return (
    <Flex direction="column" borderWidth="1px" rounded="lg" minH="420px" data-testid="support-thread">
      <Stack gap="2" p="3" flex="1" overflowY="auto" maxH="60vh">
        {messages.map((message) => (
          <Flex key={message.id} justify={message.author === 'operator' ? 'flex-end' : 'flex-start'}>
            <Box maxW="80%" px="3" py="2" rounded="lg" bg={message.author === 'operator' ? 'brand.subtle' : 'bg.muted'}>
              {message.imageUrl && (
                <a href={message.imageUrl} target="_blank" rel="noreferrer">
                  <img src={message.imageUrl} alt="" style={{ maxHeight: 160, borderRadius: 6 }} />
                </a>
              )}
              <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
                {message.body}
              </Text>
            </Box>
          </Flex>
        ))}
      </Stack>
      {open && (
        <Stack gap="2" p="3" borderTopWidth="1px">
          <Textarea aria-label={t('support.admin.answer')} placeholder={t('support.admin.placeholder')} rows={2} value={text} onChange={(e) => setText(e.target.value)} />
          <Flex gap="2" wrap="wrap">
            {conversation?.status === 'queued' && (
              <Button size="sm" variant="outline" onClick={() => void act('assign')}>
                {t('support.admin.assign')}
              </Button>
            )}
            <Button size="sm" variant="outline" onClick={() => void act('close')}>
              {t('support.admin.close')}
            </Button>
            <Button size="sm" colorPalette="brand" ms="auto" loading={busy} disabled={!text.trim()} onClick={answer}>
              {t('support.admin.answer')}
            </Button>
          </Flex>
        </Stack>
      )}
    </Flex>
  );
}

export function SupportInbox() {
  const { t } = useTranslation();
  const [queue, setQueue] = useState<InboxQueue>('queued');
  const [rows, setRows] = useState<InboxRow[]>([]);
  const [chosen, setChosen] = useState<number | null>(null);
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => {
    fetchInbox(queue).then((page) => setRows(page.records), () => undefined);
  }, [queue]);
  useEffect(refresh, [refresh, tick]);
  useEffect(() => {
    const token = getAccessToken();
    if (!token) return;
    const loop = new SocketLoop({
      name: 'Support inbox',
      url: () => operatorChannelUrl(window.location.origin, token),
      createSocket: (u) => new WebSocket(u),
      ping: () => ({ op: 'ping', ts: Date.now() }),
      pingMs: PING_MS,
      reconnectMs: RECONNECT_MS,
      onOpen: () => setTick((n) => n + 1),
      onMessage: (data) => {
        if (readFrame(data).kind !== 'other') setTick((n) => n + 1);
      },
    });
    loop.start();
    return () => loop.stop();
  }, []);
  return (
    <Grid templateColumns={{ base: '1fr', md: '320px 1fr' }} gap="4">
      <Stack gap="3">
        <Flex gap="1" role="tablist">
          {QUEUES.map((id) => (
            <Button key={id} role="tab" aria-selected={id === queue} size="sm" variant={id === queue ? 'subtle' : 'ghost'} onClick={() => setQueue(id)}>
              {t(`support.admin.${id}`)}
            </Button>
          ))}
        </Flex>
        {rows.length === 0 && (
          <Text fontSize="sm" color="fg.muted">
            {t('support.admin.none')}
          </Text>
        )}
        <Stack as="ul" gap="1" listStyleType="none">
          {rows.map((row) => (
            <li key={row.conversation.id}>
              <Button
                variant={row.conversation.id === chosen ? 'subtle' : 'ghost'}
                w="full"
                justifyContent="space-between"
                onClick={() => setChosen(row.conversation.id)}
                data-testid="support-row"
              >
                <Text truncate>{row.contact || t('support.admin.visitor')}</Text>
                {row.conversation.operatorUnread > 0 && (
                  <Badge colorPalette="red" variant="solid" rounded="full" aria-label={t('support.admin.unread', { count: row.conversation.operatorUnread })}>
                    {row.conversation.operatorUnread}
                  </Badge>
                )}
              </Button>
            </li>
          ))}
        </Stack>
      </Stack>
      {chosen === null ? (
        <Text fontSize="sm" color="fg.muted">
          {t('support.admin.pick')}
        </Text>
      ) : (
        <Thread key={chosen} id={chosen} tick={tick} onChanged={refresh} />
      )}
    </Grid>
  );
}
