import { Bookmark, Info } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SAVED_INPUT_NAME_MAX } from '#shared/contract/saved-inputs';
import { Button } from '#web/components/ui/button';
import { FormError, FormField } from '#web/components/ui/form-field';
import { LinkButton } from '#web/components/ui/link-button';
import { errorMessage } from '#web/lib/error-key';
import { useSaveAnswers, useSaveRunAnswers, useUpdateSavedInput } from '#web/lib/saved-inputs';

/** Where the answers come from: a run that sent them, or the form as it is filled in. */
export type SaveSource =
  | { kind: 'run'; runId: string }
  | {
      kind: 'form';
      workflowId: string;
      /** The form's own run: the files uploaded to it are kept with the saved answers. */
      runId: string;
      answers: () => Record<string, unknown> | null;
      /** Saved answers being edited: their answers (and name) are replaced. */
      editing?: { id: string; name: string };
    };

/**
 * "Save these answers" under a name, to run them again later without the form. A chat cannot be saved (it
 * is a conversation): the panel says so instead of offering it.
 */
export function SaveAnswersPanel({ source, isChat }: { source: SaveSource; isChat: boolean }) {
  const { t, i18n } = useTranslation('execute');
  const fromRun = useSaveRunAnswers();
  const fromForm = useSaveAnswers();
  const update = useUpdateSavedInput();
  const editing = source.kind === 'form' ? source.editing : undefined;
  const [name, setName] = useState(editing?.name ?? '');
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const pending = fromRun.isPending || fromForm.isPending || update.isPending;

  if (isChat) {
    return (
      <p className="flex items-start gap-2 text-sm text-slate-700" data-testid="save-answers-chat">
        <Info className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
        {t('save.chat')}
      </p>
    );
  }

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t('save.nameRequired'));
      return;
    }
    const done = {
      onSuccess: () => {
        setSaved(name.trim());
        if (!editing) setName('');
        setError(null);
      },
      onError: (err: unknown) => setError(errorMessage(t, err)),
    };
    if (source.kind === 'run') {
      fromRun.mutate({ runId: source.runId, name: name.trim() }, done);
      return;
    }
    const answers = source.answers();
    if (!answers) return; // the form shows what to fix
    if (editing) {
      update.mutate({ id: editing.id, name: name.trim(), answers, runId: source.runId }, done);
      return;
    }
    fromForm.mutate(
      {
        workflowId: source.workflowId,
        name: name.trim(),
        answers,
        lang: i18n.language === 'es' ? 'es' : 'en',
        runId: source.runId,
      },
      done,
    );
  };

  return (
    <form
      onSubmit={submit}
      noValidate
      aria-label={t('save.title')}
      className="rounded-xl border border-slate-200 bg-slate-50 p-4"
      data-testid="save-answers"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="min-w-0 flex-1">
          <FormField
            id={`save-answers-name-${source.kind}`}
            label={source.kind === 'run' ? t('save.title') : t('save.withoutRunning')}
            hint={t('save.hint')}
            value={name}
            maxLength={SAVED_INPUT_NAME_MAX}
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <Button type="submit" variant="secondary" disabled={pending} data-testid="save-answers-submit">
          <Bookmark className="size-4" aria-hidden="true" />
          {pending ? t('save.saving') : t('save.submit')}
        </Button>
      </div>
      <FormError message={error} className="mt-3" />
      {saved ? (
        <p role="status" className="mt-3 text-sm text-green-800" data-testid="save-answers-done">
          {t('save.done', { name: saved })}{' '}
          <LinkButton to="/saved-answers" variant="ghost" size="sm">
            {t('save.open')}
          </LinkButton>
        </p>
      ) : null}
    </form>
  );
}
