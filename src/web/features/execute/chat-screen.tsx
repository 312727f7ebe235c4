import { Bot, Loader2, Send, Square, User } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, memo, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Textarea } from '#web/components/ui/input';
import { MarkdownText } from '#web/components/ui/markdown';
import { toast, useToastClearance } from '#web/components/ui/toast';
import { currentLanguage } from '#web/i18n';
import { cn } from '#web/lib/utils';
import { streamChatReply } from './api/stream-chat-reply';
import {
  type ChatTurn,
  conversationLimitOf,
  messageLimitOf,
  readAssistantReply,
  REMAINING_SHOWN_FROM,
} from './lib/chat-transcript';
import { errorMessage } from '#web/lib/error-key';
import { refreshMe } from '#web/lib/session';
import { useChatScroll } from './use-chat-scroll';

/** A short pause between the completion marker and sending the conversation, so the last reply is read. */
const FINISH_DELAY_MS = 2000;
const INPUT_ID = 'chat-input';
const REMAINING_ID = 'chat-remaining';

export function ChatScreen({
  workflowId,
  executionId,
  title,
  welcome,
  demoAssistant,
  onFinish,
  canRetryFinish,
  onCreditsShort,
  earlier = [],
}: {
  workflowId: string;
  executionId: string;
  title: string;
  welcome: string;
  /** Replies come from the built-in demo assistant: each carries its label on screen. */
  demoAssistant: boolean;
  /** The conversation ended: complete the run (the server sends the workflow the conversation it kept). */
  onFinish(): void;
  /** The conversation was sent and that failed: offer to send it again. */
  canRetryFinish: boolean;
  /** A message was refused because the balance cannot pay for the run (its first message pays): true when handled. */
  onCreditsShort?(err: unknown): boolean;
  /** The conversation so far of a reopened chat (welcome message first), as the server kept it. */
  earlier?: ChatTurn[];
}) {
  const { t } = useTranslation('execute');
  const queryClient = useQueryClient();
  // The reply being written: null when none is; '' until its first words arrive.
  const [streaming, setStreaming] = useState<string | null>(null);
  const pending = streaming !== null;
  const stopper = useRef<AbortController | null>(null);
  // What screen readers hear: each finished reply once, not every word as it arrives.
  const [announcement, setAnnouncement] = useState('');
  const [turns, setTurns] = useState<ChatTurn[]>(() =>
    earlier.length > 0
      ? earlier.map((turn) =>
          turn.role === 'assistant'
            ? { role: 'assistant', content: readAssistantReply(turn.content, t('chat.thanks')).text }
            : turn,
        )
      : [{ role: 'assistant', content: welcome }],
  );
  const [draft, setDraft] = useState('');
  const [done, setDone] = useState(false);
  // Messages the run still allows, as the server last said; unknown until the first reply.
  const [remaining, setRemaining] = useState<number | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const composerRef = useRef<HTMLFormElement>(null);
  useToastClearance(composerRef);
  // The latest callback, read by the delayed finish without restarting its timer.
  const latest = useRef(onFinish);
  useEffect(() => {
    latest.current = onFinish;
  });

  useChatScroll(logRef, composerRef, turns.length, streaming);

  useEffect(() => {
    if (!pending && !done) document.getElementById(INPUT_ID)?.focus();
  }, [pending, done]);

  // Leaving the screen mid-reply stops it: nobody is there to read it.
  useEffect(() => () => stopper.current?.abort(), []);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => latest.current(), FINISH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [done]);

  const locked = pending || done;
  const countdown = !done && remaining !== null && remaining > 0 && remaining <= REMAINING_SHOWN_FROM;

  const submit = async (e?: FormEvent) => {
    e?.preventDefault();
    const content = draft.trim();
    if (!content || locked) return;
    setTurns((current) => [...current, { role: 'user', content }]);
    setDraft('');
    setStreaming('');
    const stop = new AbortController();
    stopper.current = stop;
    try {
      const reply = await streamChatReply(
        // Only the new message: the server keeps the conversation and reads nothing else.
        { workflowId, executionId, messages: [{ role: 'user', content }], language: currentLanguage() },
        { signal: stop.signal, onText: (text) => setStreaming((current) => (current ?? '') + text) },
      );
      const { done: finished, text } = readAssistantReply(reply.content, t('chat.thanks'));
      setTurns((current) => [...current, { role: 'assistant', content: text, demo: demoAssistant }]);
      setAnnouncement(t('chat.replyReady', { text }));
      setRemaining(reply.remaining);
      // The first message paid for the run: the balance in the top bar moved (later ones cost nothing).
      if (remaining === null) void refreshMe(queryClient);
      if (finished) setDone(true);
    } catch (err) {
      if (stop.signal.aborted) {
        // The server kept nothing of a stopped reply: the message goes back to the box, to send again.
        setTurns((current) => [...current, { role: 'assistant', content: t('chat.stopped') }]);
        setAnnouncement(t('chat.stopped'));
        setDraft((current) => current || content);
        return;
      }
      // The allowance was already used up (another tab, a reload): nothing more can be said, so the run
      // goes to the workflow with the conversation the server kept rather than stopping here.
      if (conversationLimitOf(err) !== null) {
        setTurns((current) => [...current, { role: 'assistant', content: t('chat.limitReached') }]);
        setRemaining(0);
        setDone(true);
        return;
      }
      // Not paid for: the message was not kept, so it goes back to the box for after a purchase.
      if (onCreditsShort?.(err)) {
        setTurns((current) => current.slice(0, -1));
        setDraft((current) => current || content);
        return;
      }
      const limit = messageLimitOf(err);
      toast({
        title: t('chat.errorTitle'),
        description: limit !== null ? t('chat.tooLong', { limit }) : errorMessage(t, err),
        variant: 'destructive',
      });
      setTurns((current) => [...current, { role: 'assistant', content: t('chat.apology') }]);
      // The server kept nothing of an unanswered message: give it back to send again (or shorten).
      setDraft((current) => current || content);
    } finally {
      if (stopper.current === stop) stopper.current = null;
      setStreaming(null);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter (and Enter while an input method composes a word) breaks the line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };

  return (
    <section
      aria-labelledby="chat-title"
      className="mx-auto flex h-[calc(100dvh-4rem)] max-w-3xl flex-col px-0 sm:px-4 sm:py-4"
    >
      <header className="flex items-center gap-3 border-b border-slate-200 bg-white px-4 py-3 sm:rounded-t-2xl sm:border sm:border-b-0">
        <span className="flex size-10 items-center justify-center rounded-full bg-brand-100 text-brand-700">
          <Bot className="size-5" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h1 id="chat-title" className="truncate text-base font-semibold text-slate-900">
            {title}
          </h1>
          <p className="text-xs text-slate-700">{t('chat.subtitle')}</p>
        </div>
      </header>
      {/* The log is not read out itself: a reply arrives word by word, and is announced once when whole. */}
      <div
        ref={logRef}
        role="log"
        aria-live="off"
        aria-label={t('chat.logLabel')}
        // A long conversation scrolls: keyboard users reach it to scroll it back.
        tabIndex={0}
        className="flex-1 space-y-4 overflow-y-auto bg-slate-50 px-4 py-5 sm:border-x sm:border-slate-200"
      >
        {turns.map((turn, i) => (
          <Bubble key={i} turn={turn} />
        ))}
        {streaming ? (
          <Bubble turn={{ role: 'assistant', content: streaming, demo: demoAssistant }} writing />
        ) : null}
        {streaming === '' ? (
          <div className="flex items-center gap-2 text-sm text-slate-700">
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            {t('chat.typing')}
          </div>
        ) : null}
        {done ? (
          <div className="flex flex-col items-center gap-3 pt-2" role="status">
            {canRetryFinish ? (
              <Button onClick={() => onFinish()}>{t('chat.retryFinish')}</Button>
            ) : (
              <p className="inline-flex items-center gap-2 rounded-full bg-brand-50 px-4 py-2 text-sm font-medium text-brand-800">
                <Loader2 className="size-4 animate-spin" aria-hidden="true" />
                {t('chat.finishing')}
              </p>
            )}
          </div>
        ) : null}
      </div>
      <div className="sr-only" role="status" aria-live="polite" data-testid="chat-announcement">
        {announcement}
      </div>
      <form
        ref={composerRef}
        data-testid="chat-composer"
        onSubmit={(e) => void submit(e)}
        className="flex items-end gap-2 border-t border-slate-200 bg-white p-3 sm:rounded-b-2xl sm:border"
      >
        <label htmlFor={INPUT_ID} className="sr-only">
          {t('chat.inputLabel')}
        </label>
        <Textarea
          id={INPUT_ID}
          rows={2}
          value={draft}
          disabled={locked}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
          placeholder={done ? t('chat.ended') : t('chat.placeholder')}
          className="max-h-40 min-h-11 resize-none"
          {...(countdown ? { 'aria-describedby': REMAINING_ID } : {})}
        />
        {/* Keyed apart: were the Stop button's element reused as Send, the click that stops the reply would
            go on to submit the form (its default action runs after the re-render) and send the message again. */}
        {pending ? (
          <Button
            key="stop"
            type="button"
            variant="secondary"
            onClick={() => stopper.current?.abort()}
            className="h-11 shrink-0"
            aria-label={t('chat.stop')}
          >
            <Square className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">{t('chat.stop')}</span>
          </Button>
        ) : (
          <Button
            key="send"
            type="submit"
            disabled={locked || !draft.trim()}
            className="h-11 shrink-0"
            aria-label={t('chat.send')}
          >
            <Send className="size-4" aria-hidden="true" />
            <span className="hidden sm:inline">{t('chat.send')}</span>
          </Button>
        )}
      </form>
      <p className="px-4 pb-2 pt-1 text-center text-xs text-slate-700 sm:px-0">
        {countdown ? (
          <span id={REMAINING_ID} data-testid="chat-remaining" className="mr-2 font-semibold text-amber-900">
            {remaining === 1 ? t('chat.lastMessage') : t('chat.remaining', { count: remaining ?? 0 })}
          </span>
        ) : null}
        {t('chat.hint')}
      </p>
    </section>
  );
}

// Memoised: a reply arrives a word at a time and each word renders the chat again; the turns before it keep their
// objects, so their Markdown is not parsed again for every word.
const Bubble = memo(function Bubble({ turn, writing = false }: { turn: ChatTurn; writing?: boolean }) {
  const { t } = useTranslation('execute');
  const mine = turn.role === 'user';
  const Icon = mine ? User : Bot;
  return (
    <div
      className={cn('flex items-end gap-2', mine && 'flex-row-reverse')}
      data-role={turn.role}
      {...(writing ? { 'data-streaming': 'true' } : {})}
    >
      <span
        className={cn(
          'flex size-8 shrink-0 items-center justify-center rounded-full',
          mine ? 'bg-slate-200 text-slate-800' : 'bg-brand-100 text-brand-700',
        )}
        aria-hidden="true"
      >
        <Icon className="size-4" />
      </span>
      <div
        className={cn(
          'max-w-[80%] break-words rounded-2xl px-4 py-2.5 text-sm leading-6 shadow-sm',
          mine
            ? 'whitespace-pre-wrap rounded-br-sm bg-brand-600 text-white'
            : 'rounded-bl-sm bg-white text-slate-900',
        )}
      >
        {turn.demo ? (
          <>
            <span className="block text-xs font-semibold text-brand-700" data-testid="chat-demo-label">
              {t('chat.demoAssistant')}
            </span>
            <span className="sr-only">: </span>
          </>
        ) : (
          <span className="sr-only">{mine ? t('chat.you') : t('chat.assistant')}: </span>
        )}
        {/* The assistant's words may carry Markdown (lists in a summary); the person's are shown as typed. */}
        {mine ? turn.content : <MarkdownText>{turn.content}</MarkdownText>}
      </div>
    </div>
  );
});
