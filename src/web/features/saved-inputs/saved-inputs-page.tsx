import { Bookmark, Pencil, Play, Trash2, TriangleAlert } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pickLanguage } from '#shared/contract/common';
import { SAVED_INPUT_NAME_MAX, type TSavedInput } from '#shared/contract/saved-inputs';
import { Button } from '#web/components/ui/button';
import { Callout } from '#web/components/ui/callout';
import { Card } from '#web/components/ui/card';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog';
import { FormError, FormField } from '#web/components/ui/form-field';
import { LinkButton } from '#web/components/ui/link-button';
import { RunStatusBadge } from '#web/components/ui/run-status-badge';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from '#web/lib/error-key';
import { formatDate } from '#web/lib/format';
import {
  type EditSavedState,
  useDeleteSavedInput,
  useKeepSavedFile,
  useRunSavedInput,
  useSavedInputs,
  useUpdateSavedInput,
} from '#web/lib/saved-inputs';

/**
 * The person's saved answers: name, workflow, last run and its status, schedule; run now (the run page
 * opens), rename, delete. Answers the workflow's changed questions no longer fit say what to fix and link to
 * the workflow's form, where they are saved again.
 */
export default function SavedInputsPage() {
  const { t, i18n } = useTranslation('saved');
  const list = useSavedInputs();
  const [doomed, setDoomed] = useState<TSavedInput | null>(null);
  const remove = useDeleteSavedInput();
  const lng = i18n.resolvedLanguage === 'es' ? 'es' : 'en';
  const items = list.data?.savedInputs ?? [];

  const confirmDelete = () => {
    if (!doomed) return;
    remove.mutate(doomed.id, {
      onSuccess: () => {
        toast({ title: t('deleted', { name: doomed.name }), variant: 'success' });
        setDoomed(null);
      },
      onError: (err) => toast({ title: errorMessage(t, err), variant: 'destructive' }),
    });
  };

  return (
    <div className="mx-auto max-w-4xl px-4 py-8 sm:py-12">
      <div className="flex items-start gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-xl bg-brand-100 text-brand-700">
          <Bookmark className="size-6" aria-hidden="true" />
        </span>
        <div>
          <h1 className="text-2xl font-bold text-slate-900 sm:text-3xl">{t('title')}</h1>
          <p className="mt-1 text-sm text-slate-700">{t('intro')}</p>
          {list.data ? (
            <p className="mt-1 text-sm text-slate-700" data-testid="saved-count">
              {t('count', { count: items.length, limit: list.data.limit })}
            </p>
          ) : null}
        </div>
      </div>

      {items.length === 0 ? (
        <p className="mt-8 text-slate-700" data-testid="saved-empty">
          {list.isPending ? t('loading') : t('empty')}
        </p>
      ) : (
        <ul className="mt-8 space-y-4" aria-label={t('listLabel')}>
          {items.map((item) => (
            <SavedInputRow key={item.id} item={item} lng={lng} onDelete={() => setDoomed(item)} />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={doomed !== null}
        onOpenChange={(open) => (open ? undefined : setDoomed(null))}
        title={t('deleteTitle', { name: doomed?.name ?? '' })}
        description={t('deleteBody')}
        confirmLabel={t('delete')}
        onConfirm={confirmDelete}
        pending={remove.isPending}
      />
    </div>
  );
}

function SavedInputRow({ item, lng, onDelete }: { item: TSavedInput; lng: 'es' | 'en'; onDelete(): void }) {
  const { t } = useTranslation('saved');
  const navigate = useNavigate();
  const run = useRunSavedInput();
  const rename = useUpdateSavedInput();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(item.name);
  const [error, setError] = useState<string | null>(null);
  const nameId = `saved-${item.id}-name`;

  const runNow = () =>
    run.mutate(item.id, {
      onSuccess: ({ executionId }) => void navigate(`/my-workflows/${executionId}`),
      onError: (err) =>
        toast({ title: t('runFailed'), description: errorMessage(t, err), variant: 'destructive' }),
    });

  const submitRename = (e: FormEvent) => {
    e.preventDefault();
    rename.mutate(
      { id: item.id, name: name.trim() },
      {
        onSuccess: (saved) => {
          setRenaming(false);
          setError(null);
          toast({ title: t('renamed', { name: saved.name }), variant: 'success' });
        },
        onError: (err) => setError(errorMessage(t, err)),
      },
    );
  };

  return (
    <li data-testid="saved-row">
      <Card className="p-4 sm:p-5">
        <div className="flex flex-col gap-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <h2 className="break-words text-lg font-semibold text-slate-900" data-testid="saved-name">
              {item.name}
            </h2>
            <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-slate-700">{t('workflow')}</dt>
              <dd className="text-slate-900">{pickLanguage(item.workflowName, lng)}</dd>
              <dt className="text-slate-700">{t('lastRun')}</dt>
              <dd className="flex flex-wrap items-center gap-2 text-slate-900" data-testid="saved-last-run">
                {item.lastRun ? (
                  <>
                    <Link className="text-brand-700 underline" to={`/my-workflows/${item.lastRun.id}`}>
                      {formatDate(item.lastRun.createdAt, { language: lng })}
                    </Link>
                    <RunStatusBadge status={item.lastRun.status} />
                  </>
                ) : (
                  t('never')
                )}
              </dd>
              {item.files.length > 0 ? (
                <>
                  <dt className="text-slate-700">{t('files')}</dt>
                  <dd className="break-all text-slate-900" data-testid="saved-files">
                    {item.files.map((f) => f.filename).join(', ')}
                  </dd>
                </>
              ) : null}
              {/* Schedules (issue 25, section 2) fill this slot with the saved answers' schedule. */}
              <dt className="text-slate-700">{t('schedule')}</dt>
              <dd className="text-slate-900" data-testid="saved-schedule">
                {t('noSchedule')}
              </dd>
            </dl>
          </div>
          <div className="flex flex-wrap gap-2 sm:justify-end">
            <Button onClick={runNow} disabled={run.isPending || item.needsReview} data-testid="saved-run">
              <Play className="size-4" aria-hidden="true" />
              {run.isPending ? t('running') : t('runNow')}
            </Button>
            <LinkButton
              to={`/workflows/${item.workflowId}/execute`}
              state={
                {
                  saved: { id: item.id, name: item.name, answers: item.answers, files: item.files },
                } satisfies EditSavedState
              }
              variant="secondary"
              icon={Pencil}
            >
              {t('edit')}
            </LinkButton>
            <Button variant="secondary" onClick={() => setRenaming((r) => !r)} aria-expanded={renaming}>
              {t('rename')}
            </Button>
            <Button variant="ghost" onClick={onDelete} data-testid="saved-delete">
              <Trash2 className="size-4" aria-hidden="true" />
              {t('delete')}
            </Button>
          </div>
        </div>
        {item.needsReview ? (
          <Callout tone="danger" icon={TriangleAlert} className="mt-4" data-testid="saved-review">
            <p className="font-semibold">{t('needsReview')}</p>
            <p className="mt-1 text-sm">{t('reviewBody')}</p>
            <ul className="mt-2 list-disc pl-5 text-sm">
              {item.reviewProblems.map((p) => (
                <li key={p.field}>
                  <code className="font-mono">{p.field.replace(/^answers\./, '')}</code>: {p.message}
                  {FILE_PROBLEMS.has(p.key) ? (
                    <FileAnswerUpload savedId={item.id} questionId={p.field.replace(/^answers\./, '')} />
                  ) : null}
                </li>
              ))}
            </ul>
          </Callout>
        ) : null}
        {renaming ? (
          <form
            onSubmit={submitRename}
            noValidate
            className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-end"
          >
            <div className="min-w-0 flex-1">
              <FormField
                id={nameId}
                label={t('renameLabel', { name: item.name })}
                value={name}
                maxLength={SAVED_INPUT_NAME_MAX}
                onChange={(e) => setName(e.target.value)}
              />
            </div>
            <Button type="submit" disabled={rename.isPending}>
              {t('renameSave')}
            </Button>
            <Button type="button" variant="ghost" onClick={() => setRenaming(false)}>
              {t('cancel')}
            </Button>
          </form>
        ) : null}
        <FormError message={error} className="mt-3" />
      </Card>
    </li>
  );
}

/** Review problems a file answers: the question waits for its file, or names one no longer kept. */
const FILE_PROBLEMS = new Set(['answerFileRequired', 'answerFileUnknown']);

/** Keeps a file for one file question of saved answers (checked by the server as a run's upload). */
function FileAnswerUpload({ savedId, questionId }: { savedId: string; questionId: string }) {
  const { t } = useTranslation('saved');
  const keep = useKeepSavedFile();
  const [error, setError] = useState<string | null>(null);
  const id = `saved-file-${savedId}-${questionId}`;
  return (
    <div className="mt-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {t('uploadFile', { question: questionId })}
      </label>
      <input
        id={id}
        type="file"
        data-testid="saved-file-input"
        disabled={keep.isPending}
        className="mt-1 block w-full text-sm text-slate-900"
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (!file) return;
          keep.mutate(
            { id: savedId, questionId, file },
            {
              onSuccess: () => {
                setError(null);
                toast({ title: t('fileKept', { name: file.name }), variant: 'success' });
              },
              onError: (err) => setError(errorMessage(t, err)),
            },
          );
        }}
      />
      <FormError message={error} className="mt-1" />
    </div>
  );
}
