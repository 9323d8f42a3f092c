/**
 * The live support chat widget, loaded the first time the chat opens (`app/shell/support-chat.tsx`)
 * and kept mounted afterwards so that the live channel keeps the unread badge current. A visitor
 * leaves an e-mail first and gets a conversation token (kept in local storage); a logged-in user
 * writes at once. The conversation is read back from the server on mount, on every reconnect and
 * after a language switch, so neither a reload nor a language change loses it. Phones get a
 * full-screen sheet; larger screens a 360 px panel.
 *
 * @module
 */

import { Box, Button, CloseButton, Field, Flex, Heading, Image, Input, Stack, Text, Textarea } from '@chakra-ui/react';
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ChatIcon, CloseIcon } from '../../components/icons';
import { getAccessToken, useIsLoggedIn } from '../../lib/session';
import { SocketLoop } from '../../lib/socket-loop';
import { readStored, removeStored, writeStored } from '../../lib/storage';
import { closeChat, setChatUnread, useChatOpen } from '../../lib/chat-store';
import { fetchThread, markRead, sendAsCustomer, startVisitor, uploadImage } from '../../lib/support-api';
import {
  type ChatConversation,
  type ChatIdentity,
  type ChatMessage,
  PING_MS,
  RECONNECT_MS,
  VISITOR_TOKEN_KEY,
  canSend,
  customerChannelUrl,
  identityOf,
  mergeMessages,
  readFrame,
  unreadBadge,
} from '../../lib/support-chat';

const tokenStore = { getItem: readStored, setItem: writeStored, removeItem: removeStored };

function useIdentity(): [ChatIdentity, (token: string) => void] {
  const loggedIn = useIsLoggedIn();
  const [stored, setStored] = useState(() => readStored(VISITOR_TOKEN_KEY));
  const identity = identityOf(loggedIn ? getAccessToken() : null, { ...tokenStore, getItem: () => stored });
  const remember = useCallback((token: string) => {
    writeStored(VISITOR_TOKEN_KEY, token);
    setStored(token);
  }, []);
  return [identity, remember];
}

function useVisible(): boolean {
  const [visible, setVisible] = useState(() => typeof document === 'undefined' || document.visibilityState !== 'hidden');
  useEffect(() => {
    const onChange = () => setVisible(document.visibilityState !== 'hidden');
    document.addEventListener('visibilitychange', onChange);
    return () => document.removeEventListener('visibilitychange', onChange);
  }, []);
  return visible;
}

/** The chat's state for `identity`: the thread, kept live over the customer channel. */
function useThread(identity: ChatIdentity, language: string) {
  const [conversation, setConversation] = useState<ChatConversation | null>(null);
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const key = identity.kind === 'user' ? `u:${identity.satoken}` : identity.kind === 'visitor' ? `v:${identity.token}` : '';

  const reload = useCallback(() => {
    if (identity.kind === 'anonymous') return;
    fetchThread(identity).then(
      (thread) => {
        setConversation(thread.conversation);
        setMessages((current) => mergeMessages(current, thread.messages));
      },
      () => undefined,
    );
    // `key` names the identity; the object itself changes on every render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);

  // Read again on mount and after a language switch: the conversation does not depend on it.
  useEffect(reload, [reload, language]);

  useEffect(() => {
    const url = customerChannelUrl(window.location.origin, identity);
    if (!url) return;
    const loop = new SocketLoop({
      name: 'Support chat',
      url: () => url,
      createSocket: (u) => new WebSocket(u),
      ping: () => ({ op: 'ping', ts: Date.now() }),
      pingMs: PING_MS,
      reconnectMs: RECONNECT_MS,
      // Messages sent while the socket was down are stored: read them back.
      onOpen: reload,
      onMessage: (data) => {
        const event = readFrame(data);
        if (event.kind === 'message') setMessages((current) => mergeMessages(current, [event.message]));
        if (event.kind === 'conversation') setConversation(event.conversation);
      },
    });
    loop.start();
    return () => loop.stop();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, conversation?.id === undefined]);

  return { conversation, messages, setConversation, setMessages, reload };
}

function VisitorForm({ onStarted }: { onStarted: (token: string) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  return (
    <Stack
      as="form"
      gap="3"
      px="4"
      py="5"
      onSubmit={(event) => {
        event.preventDefault();
        setBusy(true);
        startVisitor(email.trim()).then(
          (started) => onStarted(started.token),
          () => setBusy(false),
        );
      }}
    >
      <Text fontSize="sm">{t('support.visitorIntro')}</Text>
      <Field.Root required>
        <Field.Label>{t('support.email')}</Field.Label>
        <Input type="email" autoComplete="email" value={email} onChange={(e) => setEmail(e.target.value)} />
      </Field.Root>
      <Button type="submit" colorPalette="brand" loading={busy} disabled={!email.trim()}>
        {t('support.start')}
      </Button>
    </Stack>
  );
}

function Bubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const mine = message.author === 'customer';
  return (
    <Flex justify={mine ? 'flex-end' : 'flex-start'}>
      <Box
        maxW="80%"
        px="3"
        py="2"
        rounded="lg"
        bg={mine ? 'brand.solid' : 'bg.muted'}
        color={mine ? 'brand.contrast' : 'fg'}
        data-author={message.author}
      >
        {!mine && (
          <Text fontSize="xs" fontWeight="semibold" mb="0.5">
            {t('support.operator')}
          </Text>
        )}
        {message.imageUrl && <Image src={message.imageUrl} alt={t('support.image')} maxH="40" rounded="md" mb={message.body ? '1' : '0'} />}
        {message.body && (
          <Text fontSize="sm" whiteSpace="pre-wrap" wordBreak="break-word">
            {message.body}
          </Text>
        )}
      </Box>
    </Flex>
  );
}

function Composer({ identity, onSent }: { identity: ChatIdentity; onSent: (message: ChatMessage, conversation: ChatConversation) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const send = async () => {
    if (!canSend(text, file !== null) || busy) return;
    setBusy(true);
    try {
      const fileId = file ? await uploadImage(file) : undefined;
      const sent = await sendAsCustomer(identity, text.trim(), fileId);
      onSent(sent.message, sent.conversation);
      setText('');
      setFile(null);
    } catch {
      // The client showed the refusal.
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack
      as="form"
      gap="2"
      p="3"
      borderTopWidth="1px"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <Textarea
        aria-label={t('support.message')}
        placeholder={t('support.placeholder')}
        rows={2}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
      />
      <Flex gap="2" align="center">
        {identity.kind === 'user' && (
          <>
            <input
              ref={fileInput}
              type="file"
              accept="image/jpeg,image/png,image/webp"
              hidden
              aria-label={t('support.attach')}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
            <Button type="button" size="sm" variant="outline" onClick={() => fileInput.current?.click()}>
              {t('support.attach')}
            </Button>
            {file && (
              <Text fontSize="xs" color="fg.muted" truncate flex="1">
                {file.name}
              </Text>
            )}
          </>
        )}
        <Button type="submit" size="sm" colorPalette="brand" ms="auto" loading={busy} disabled={!canSend(text, file !== null)}>
          {t('support.send')}
        </Button>
      </Flex>
    </Stack>
  );
}

/** The widget (rendered hidden while the chat is closed, to keep its channel). */
export function ChatWidget() {
  const { t, i18n } = useTranslation();
  const open = useChatOpen();
  const visible = useVisible();
  const titleId = useId();
  const [identity, rememberVisitor] = useIdentity();
  const { conversation, messages, setConversation, setMessages } = useThread(identity, i18n.language);
  const reading = open && visible;
  const end = useRef<HTMLDivElement>(null);

  useEffect(() => {
    setChatUnread(unreadBadge(conversation, reading));
    if (reading && conversation && conversation.customerUnread > 0 && identity.kind !== 'anonymous') {
      markRead(identity).then(setConversation, () => undefined);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [conversation, reading]);

  useEffect(() => {
    if (open) end.current?.scrollIntoView({ block: 'end' });
  }, [open, messages.length]);

  return (
    <Box
      role="dialog"
      aria-labelledby={titleId}
      hidden={!open}
      position="fixed"
      inset={{ base: '0', sm: 'auto' }}
      bottom={{ sm: '6' }}
      right={{ sm: '6' }}
      w={{ base: '100vw', sm: '360px' }}
      h={{ base: '100dvh', sm: '520px' }}
      maxH={{ sm: 'calc(100dvh - 48px)' }}
      display={open ? 'flex' : 'none'}
      flexDirection="column"
      bg="bg.panel"
      borderWidth={{ base: '0', sm: '1px' }}
      rounded={{ base: 'none', sm: 'xl' }}
      shadow="2xl"
      zIndex="modal"
      overflow="hidden"
      data-testid="support-chat"
    >
      <Flex align="center" gap="3" px="4" py="3" bg="brand.solid" color="brand.contrast" flexShrink={0}>
        <ChatIcon boxSize="5" />
        <Heading as="h2" id={titleId} fontSize="md" flex="1" color="inherit">
          {t('chat.title')}
        </Heading>
        <CloseButton size="sm" color="inherit" aria-label={t('chat.close')} onClick={closeChat}>
          <CloseIcon />
        </CloseButton>
      </Flex>
      {identity.kind === 'anonymous' ? (
        <VisitorForm onStarted={rememberVisitor} />
      ) : (
        <>
          <Stack gap="2" px="3" py="3" flex="1" overflowY="auto" aria-live="polite">
            {messages.length === 0 && (
              <Text fontSize="sm" color="fg.muted">
                {t('support.empty')}
              </Text>
            )}
            {messages.map((message) => (
              <Bubble key={message.id} message={message} />
            ))}
            {conversation?.status === 'closed' && (
              <Text fontSize="xs" color="fg.muted" textAlign="center">
                {t('support.closed')}
              </Text>
            )}
            <div ref={end} />
          </Stack>
          <Composer
            identity={identity}
            onSent={(message, next) => {
              setMessages((current) => mergeMessages(current, [message]));
              setConversation(next);
            }}
          />
        </>
      )}
    </Box>
  );
}
