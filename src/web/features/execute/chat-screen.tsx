import { Bot, Loader2, Send, User } from 'lucide-react';
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '#web/components/ui/button';
import { Textarea } from '#web/components/ui/input';
import { toast } from '#web/components/ui/toast';
import { currentLanguage } from '#web/i18n';
import { cn } from '#web/lib/utils';
import { useSendChatMessage } from './api/send-chat-message';
import { type ChatTurn, messageLimitOf, readAssistantReply } from './lib/chat-transcript';

/** A short pause between the completion marker and sending the conversation, so the last reply is read. */
const FINISH_DELAY_MS = 2000;
const INPUT_ID = 'chat-input';

export function ChatScreen({
  workflowId,
  executionId,
  title,
  welcome,
  onFinish,
  canRetryFinish,
}: {
  workflowId: string;
  executionId: string;
  title: string;
  welcome: string;
  /** The conversation ended: complete the run (the server sends the workflow the conversation it kept). */
  onFinish(): void;
  /** The conversation was sent and that failed: offer to send it again. */
  canRetryFinish: boolean;
}) {
  const { t } = useTranslation('execute');
  const send = useSendChatMessage();
  const [turns, setTurns] = useState<ChatTurn[]>(() => [{ role: 'assistant', content: welcome }]);
  const [draft, setDraft] = useState('');
  const [done, setDone] = useState(false);
  const endRef = useRef<HTMLDivElement>(null);
  // The latest callback, read by the delayed finish without restarting its timer.
  const latest = useRef(onFinish);
  useEffect(() => {
    latest.current = onFinish;
  });

  useEffect(() => {
    endRef.current?.scrollIntoView?.({ block: 'end' });
  }, [turns, send.isPending]);

  useEffect(() => {
    if (!send.isPending && !done) document.getElementById(INPUT_ID)?.focus();
  }, [send.isPending, done]);

  useEffect(() => {
    if (!done) return;
    const timer = window.setTimeout(() => latest.current(), FINISH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [done]);

  const locked = send.isPending || done;

  const submit = (e?: FormEvent) => {
    e?.preventDefault();
    const content = draft.trim();
    if (!content || locked) return;
    setTurns((current) => [...current, { role: 'user', content }]);
    setDraft('');
    send.mutate(
      // Only the new message: the server keeps the conversation and reads nothing else.
      { workflowId, executionId, messages: [{ role: 'user', content }], language: currentLanguage() },
      {
        onSuccess: ({ content: reply }) => {
          const { done: finished, text } = readAssistantReply(reply, t('chat.thanks'));
          setTurns((current) => [...current, { role: 'assistant', content: text }]);
          if (finished) setDone(true);
        },
        onError: (err) => {
          const limit = messageLimitOf(err);
          toast({
            title: t('chat.errorTitle'),
            description:
              limit !== null ? t('chat.tooLong', { limit }) : err.message || t('chat.errorFallback'),
            variant: 'destructive',
          });
          setTurns((current) => [...current, { role: 'assistant', content: t('chat.apology') }]);
          // The server kept nothing of an unanswered message: give it back to send again (or shorten).
          setDraft((current) => current || content);
        },
      },
    );
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends; Shift+Enter (and Enter while an input method composes a word) breaks the line.
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      submit();
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
      <div
        role="log"
        aria-live="polite"
        aria-label={t('chat.logLabel')}
        className="flex-1 space-y-4 overflow-y-auto bg-slate-50 px-4 py-5 sm:border-x sm:border-slate-200"
      >
        {turns.map((turn, i) => (
          <Bubble key={i} turn={turn} />
        ))}
        {send.isPending ? (
          <div className="flex items-center gap-2 text-sm text-slate-700" role="status">
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
        <div ref={endRef} />
      </div>
      <form
        onSubmit={submit}
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
        />
        <Button
          type="submit"
          disabled={locked || !draft.trim()}
          className="h-11 shrink-0"
          aria-label={t('chat.send')}
        >
          <Send className="size-4" aria-hidden="true" />
          <span className="hidden sm:inline">{t('chat.send')}</span>
        </Button>
      </form>
      <p className="px-4 pb-2 pt-1 text-center text-xs text-slate-700 sm:px-0">{t('chat.hint')}</p>
    </section>
  );
}

function Bubble({ turn }: { turn: ChatTurn }) {
  const { t } = useTranslation('execute');
  const mine = turn.role === 'user';
  const Icon = mine ? User : Bot;
  return (
    <div className={cn('flex items-end gap-2', mine && 'flex-row-reverse')} data-role={turn.role}>
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
          'max-w-[80%] whitespace-pre-wrap break-words rounded-2xl px-4 py-2.5 text-sm leading-6 shadow-sm',
          mine ? 'rounded-br-sm bg-brand-600 text-white' : 'rounded-bl-sm bg-white text-slate-900',
        )}
      >
        <span className="sr-only">{mine ? t('chat.you') : t('chat.assistant')}: </span>
        {turn.content}
      </div>
    </div>
  );
}
