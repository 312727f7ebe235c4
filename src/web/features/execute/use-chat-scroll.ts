import { type RefObject, useEffect } from 'react';

/**
 * Keeps a chat's newest words in sight. The log scrolls itself with every word; the page moves only when a
 * message is added, and only as far as it takes to bring the composer into sight (a banner above the chat can
 * make the page taller than a phone's screen). Moving the page with every word took Stop from under the finger.
 */
export function useChatScroll(
  logRef: RefObject<HTMLElement | null>,
  composerRef: RefObject<HTMLElement | null>,
  messages: number,
  streaming: string | null,
): void {
  useEffect(() => {
    const log = logRef.current;
    if (log) log.scrollTop = log.scrollHeight;
  }, [logRef, messages, streaming]);
  useEffect(() => {
    composerRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [composerRef, messages]);
}
