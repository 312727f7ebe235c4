import { FileUp, Paperclip, RefreshCw, Trash2, X } from 'lucide-react';
import { type DragEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { acceptedExtensions, MAX_INPUT_FILE_MB, type TSurveyQuestion } from '#shared/contract/workflows';
import { Button } from '#web/components/ui/button';
import { formatFileSize } from '#web/components/ui/file-meta';
import { errorMessage } from '#web/lib/error-key';
import { cn } from '#web/lib/utils';
import { deleteRunFile, type UploadHandle, uploadRunFile } from './api/run-files';
import type { UploadedFileAnswer } from './lib/survey-answers';

type Upload =
  | { kind: 'idle' }
  | { kind: 'uploading'; name: string; size: number; progress: number }
  | { kind: 'removing' };

/**
 * A file question: drop a file or pick one, see its name, size and the upload's progress, then remove or
 * replace it before sending. The file goes to the run at once; the survey's answer is the upload's id.
 */
export function FileAnswerField({
  executionId,
  question,
  inputId,
  label,
  hintId,
  value,
  invalid,
  invalidMessage,
  onChange,
}: {
  executionId: string;
  question: TSurveyQuestion;
  inputId: string;
  label: ReactNode;
  hintId: string;
  value: UploadedFileAnswer | null;
  invalid: boolean;
  invalidMessage: ReactNode;
  onChange(value: UploadedFileAnswer | null): void;
}) {
  const { t, i18n } = useTranslation('execute');
  const lng = i18n.resolvedLanguage ?? 'en';
  const input = useRef<HTMLInputElement>(null);
  const handle = useRef<UploadHandle | null>(null);
  const [upload, setUpload] = useState<Upload>({ kind: 'idle' });
  const [error, setError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const accepted = acceptedExtensions(question);
  const maxMb = question.maxSizeMb ?? MAX_INPUT_FILE_MB;
  const kinds = accepted.filter((e) => e !== 'jpeg').map((e) => (e === 'jpg' ? 'JPG' : e.toUpperCase()));
  const errorId = `${inputId}-upload-error`;

  // Leaving the page mid-upload stops it.
  useEffect(() => () => handle.current?.abort(), []);
  // After a removal the "choose" button comes back in the file's place: focus follows it once it is enabled.
  const refocus = useRef(false);
  useEffect(() => {
    if (refocus.current && upload.kind === 'idle' && !value) {
      refocus.current = false;
      document.getElementById(inputId)?.focus();
    }
  });

  const start = async (file: File) => {
    setError(null);
    const extension = /\.([A-Za-z0-9]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
    if (!(accepted as string[]).includes(extension)) {
      setError(t('file.wrongKind', { kinds: kinds.join(', ') }));
      return;
    }
    if (file.size > maxMb * 1024 * 1024) {
      setError(t('file.tooLarge', { mb: maxMb }));
      return;
    }
    try {
      // Replacing: the earlier file goes first, since a question holds one file. A file kept with saved
      // answers is theirs, not the run's: it stays until the answers are saved without it.
      if (value && !value.kept) {
        setUpload({ kind: 'removing' });
        await deleteRunFile(executionId, value.fileId);
        onChange(null);
      }
      setUpload({ kind: 'uploading', name: file.name, size: file.size, progress: 0 });
      const current = uploadRunFile(executionId, question.id, file, (progress) =>
        setUpload((u) => (u.kind === 'uploading' ? { ...u, progress } : u)),
      );
      handle.current = current;
      const uploaded = await current.done;
      onChange({ fileId: uploaded.fileId, filename: uploaded.filename, size: uploaded.size });
    } catch (err) {
      if (!(err instanceof DOMException && err.name === 'AbortError')) setError(errorMessage(t, err));
    } finally {
      handle.current = null;
      setUpload({ kind: 'idle' });
      if (input.current) input.current.value = '';
    }
  };

  const remove = async () => {
    if (!value) return;
    setError(null);
    if (value.kept) {
      onChange(null);
      refocus.current = true;
      return;
    }
    setUpload({ kind: 'removing' });
    try {
      await deleteRunFile(executionId, value.fileId);
      onChange(null);
      refocus.current = true;
    } catch (err) {
      setError(errorMessage(t, err));
    } finally {
      setUpload({ kind: 'idle' });
    }
  };

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const file = e.dataTransfer.files[0];
    if (file && upload.kind === 'idle') void start(file);
  };

  const describedBy = [hintId, error ? errorId : null, invalid ? `${inputId}-error` : null]
    .filter(Boolean)
    .join(' ');
  const busy = upload.kind !== 'idle';

  return (
    <div>
      <p id={`${inputId}-label`} className="mb-1.5 block text-sm font-medium text-slate-900">
        {label}
      </p>
      {/* The picker itself stays out of sight and out of the tab order: the "choose" button opens it. */}
      <input
        ref={input}
        type="file"
        className="hidden"
        tabIndex={-1}
        aria-hidden="true"
        accept={accepted.map((e) => `.${e}`).join(',')}
        data-testid={`file-input-${question.id}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          if (file) void start(file);
        }}
      />
      {value && upload.kind === 'idle' ? (
        <div
          className="flex flex-col gap-3 rounded-lg border border-slate-300 bg-white p-3 sm:flex-row sm:items-center"
          data-testid={`file-answer-${question.id}`}
        >
          <div className="flex min-w-0 flex-1 items-center gap-3">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Paperclip className="size-5" aria-hidden="true" />
            </span>
            <div className="min-w-0">
              <p className="truncate text-sm font-medium text-slate-900" data-testid="file-name">
                {value.filename}
              </p>
              <p className="text-xs text-slate-700">
                {formatFileSize(value.size, lng)} · {value.kept ? t('file.kept') : t('file.uploaded')}
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() => input.current?.click()}
              aria-label={t('file.replaceNamed', { name: value.filename })}
            >
              <RefreshCw className="size-4" aria-hidden="true" />
              {t('file.replace')}
            </Button>
            <Button
              type="button"
              variant="secondary"
              size="sm"
              onClick={() => void remove()}
              aria-label={t('file.removeNamed', { name: value.filename })}
            >
              <Trash2 className="size-4" aria-hidden="true" />
              {t('file.remove')}
            </Button>
          </div>
        </div>
      ) : upload.kind === 'uploading' ? (
        <div
          className="rounded-lg border border-slate-300 bg-white p-3"
          data-testid={`file-progress-${question.id}`}
        >
          <div className="flex items-center justify-between gap-3">
            <p className="min-w-0 truncate text-sm font-medium text-slate-900">{upload.name}</p>
            <Button
              type="button"
              variant="ghost"
              size="sm"
              onClick={() => handle.current?.abort()}
              aria-label={t('file.cancelNamed', { name: upload.name })}
            >
              <X className="size-4" aria-hidden="true" />
              {t('file.cancel')}
            </Button>
          </div>
          <div
            role="progressbar"
            aria-label={t('file.progress', { name: upload.name })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(upload.progress * 100)}
            className="mt-2 h-2 overflow-hidden rounded-full bg-slate-200"
          >
            <div
              className="h-full rounded-full bg-brand-600 transition-[width]"
              style={{ width: `${Math.round(upload.progress * 100)}%` }}
            />
          </div>
          <p className="mt-1 text-xs text-slate-700">
            {t('file.uploading', {
              percent: Math.round(upload.progress * 100),
              size: formatFileSize(upload.size, lng),
            })}
          </p>
        </div>
      ) : (
        <div
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          data-testid={`file-drop-${question.id}`}
          className={cn(
            'flex flex-col items-center gap-2 rounded-lg border-2 border-dashed px-4 py-6 text-center',
            dragging ? 'border-brand-600 bg-brand-50' : 'border-slate-300 bg-slate-50',
            (invalid || error) && 'border-red-600',
          )}
        >
          <FileUp className="size-7 text-slate-600" aria-hidden="true" />
          <p className="text-sm text-slate-700">{busy ? t('file.removing') : t('file.drop')}</p>
          <Button
            // The question's own id: a request to focus a missing answer lands here.
            id={inputId}
            type="button"
            variant="secondary"
            size="sm"
            disabled={busy}
            aria-labelledby={`${inputId}-label ${inputId}-choose`}
            aria-describedby={describedBy}
            aria-invalid={invalid || error ? true : undefined}
            className="scroll-mt-28"
            onClick={() => input.current?.click()}
          >
            <span id={`${inputId}-choose`} className="sr-only">
              {t('file.choose')}
            </span>
            <span aria-hidden="true">{t('file.choose')}</span>
          </Button>
        </div>
      )}
      <p id={hintId} className="mt-1.5 text-xs text-slate-700">
        {t('file.hint', { kinds: kinds.join(', '), mb: maxMb })}
      </p>
      {error ? (
        <p
          id={errorId}
          role="alert"
          className="mt-1.5 text-sm font-medium text-red-700"
          data-testid="file-error"
        >
          {error}
        </p>
      ) : null}
      {invalid ? (
        <p id={`${inputId}-error`} className="mt-1.5 text-sm font-medium text-red-700">
          {invalidMessage}
        </p>
      ) : null}
    </div>
  );
}
