// @vitest-environment jsdom
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useChatScroll } from './use-chat-scroll';

/** A log 300 px high whose content is `content` px, and a composer whose page scrolls are counted. */
function chat(content: number) {
  const log = document.createElement('div');
  Object.defineProperty(log, 'scrollHeight', { get: () => content, configurable: true });
  const composer = document.createElement('form');
  const scrollIntoView = vi.fn();
  composer.scrollIntoView = scrollIntoView;
  return { log, composer, scrollIntoView, grow: (px: number) => (content += px) };
}

describe('a chat while its reply is written', () => {
  it('scrolls the log to the newest words and moves the page only when a message is added', () => {
    const { log, composer, scrollIntoView, grow } = chat(600);
    const logRef = { current: log };
    const composerRef = { current: composer };
    const { rerender } = renderHook(
      ({ messages, streaming }: { messages: number; streaming: string | null }) =>
        useChatScroll(logRef, composerRef, messages, streaming),
      { initialProps: { messages: 2, streaming: null as string | null } },
    );
    expect(log.scrollTop).toBe(600);
    expect(scrollIntoView).toHaveBeenCalledTimes(1);
    expect(scrollIntoView).toHaveBeenLastCalledWith({ block: 'nearest' });

    // The person's message is added, then the reply comes word by word: the log follows every word, the page
    // stays where it is (Stop stays under the finger).
    rerender({ messages: 3, streaming: '' });
    expect(scrollIntoView).toHaveBeenCalledTimes(2);
    let reply = '';
    for (const word of ['This', 'is', 'the', 'summary']) {
      reply += `${word} `;
      grow(20);
      rerender({ messages: 3, streaming: reply });
      expect(log.scrollTop).toBe(log.scrollHeight);
    }
    expect(log.scrollTop).toBe(680);
    expect(scrollIntoView).toHaveBeenCalledTimes(2);

    // The whole reply becomes a message of the log.
    rerender({ messages: 4, streaming: null });
    expect(scrollIntoView).toHaveBeenCalledTimes(3);
  });
});
