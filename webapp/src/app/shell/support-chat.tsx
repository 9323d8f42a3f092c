/**
 * The online customer-chat widget's place in every page: nothing until the chat is opened (side
 * menu, footer), then the widget (`features/support/chat-widget`), fetched on demand with its texts
 * — it is never part of a page's first download. A visitor who already has a conversation (its token
 * is stored) gets the widget fetched in the background a little after the page settles, so the
 * unread badge shows answers without opening the chat. Once loaded it stays mounted.
 *
 * @module
 */

import { Suspense, lazy, useEffect, useState } from 'react';
import { readStored } from '../../lib/storage';
import { loadWithAreas } from '../lazy-screen';
import { ChunkErrorBoundary } from '../route-boundary';
import { SCREEN_AREAS } from '../screen-areas';
import { useChatOpen } from '../../lib/chat-store';
import { VISITOR_TOKEN_KEY } from '../../lib/support-chat';

/** How long after the page settles a returning visitor's widget is fetched. */
const BACKGROUND_LOAD_MS = 4000;

const ChatWidget = lazy(() =>
  loadWithAreas(() => import('../../features/support/chat-widget'), SCREEN_AREAS['features/support/chat-widget']).then((m) => ({
    default: m.ChatWidget,
  })),
);

export function SupportChat() {
  const open = useChatOpen();
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  useEffect(() => {
    if (wanted || readStored(VISITOR_TOKEN_KEY) === null) return;
    const timer = setTimeout(() => setWanted(true), BACKGROUND_LOAD_MS);
    return () => clearTimeout(timer);
  }, [wanted]);
  if (!wanted) return null;
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={null}>
        <ChatWidget />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
