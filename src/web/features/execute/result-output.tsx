import { Check, Copy, Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TExecution } from '#shared/contract/executions';
import { Button } from '#web/components/ui/button';
import { FileKindIcon } from '#web/components/ui/file-kind-icon';
import { fileKindOf, formatFileSize, isVideoUrl, resultDownloadUrl } from '#web/components/ui/file-meta';
import { MarkdownText } from '#web/components/ui/markdown';

/** The message a workflow may attach to its result (`output_data.message`). */
function resultMessage(outputData: unknown): string | null {
  if (!outputData || typeof outputData !== 'object') return null;
  const message = (outputData as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message : null;
}

/** The text a text result carries: the workflow's message, or the whole output when it sent a bare string. */
function resultText(outputData: unknown): string | null {
  if (typeof outputData === 'string') return outputData.trim() ? outputData : null;
  return resultMessage(outputData);
}

type CopyState = 'idle' | 'copied' | 'failed';

/**
 * A text result: its message as Markdown, a copy button, and the full JSON behind a disclosure for those who
 * need every field. Without any text there is nothing to format, so the JSON is the result itself.
 */
function TextResult({ outputData }: { outputData: unknown }) {
  const { t } = useTranslation('execute');
  const text = resultText(outputData);
  const json = typeof outputData === 'string' ? outputData : JSON.stringify(outputData ?? null, null, 2);
  const [copy, setCopy] = useState<CopyState>('idle');
  useEffect(() => {
    if (copy === 'idle') return;
    const timer = window.setTimeout(() => setCopy('idle'), 4000);
    return () => window.clearTimeout(timer);
  }, [copy]);

  const jsonPanel = (
    <pre
      tabIndex={0}
      aria-label={t('result.rawData')}
      className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-slate-900 p-4 text-left font-mono text-xs leading-5 text-slate-100"
      data-testid="result-json"
    >
      {json}
    </pre>
  );

  if (!text) {
    return (
      <section aria-labelledby="result-output-title">
        <h2 id="result-output-title" className="text-sm font-semibold text-slate-900">
          {t('result.output')}
        </h2>
        {jsonPanel}
      </section>
    );
  }

  const copyText = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopy('copied'),
      () => setCopy('failed'),
    );
  };

  return (
    <section aria-labelledby="result-output-title" className="text-left">
      <div className="flex items-center justify-between gap-3">
        <h2 id="result-output-title" className="text-sm font-semibold text-slate-900">
          {t('result.output')}
        </h2>
        <Button variant="secondary" size="sm" onClick={copyText} data-testid="result-copy">
          {copy === 'copied' ? (
            <Check className="size-4" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
          {copy === 'copied' ? t('result.copied') : t('result.copy')}
        </Button>
      </div>
      {/* Announced on its own: the button's changing name is not read out by every screen reader. */}
      <p role="status" className="sr-only" data-testid="result-copy-status">
        {copy === 'copied' ? t('result.copied') : copy === 'failed' ? t('result.copyFailed') : ''}
      </p>
      {/* Long messages scroll inside the card instead of pushing the next steps off the screen. The card grows
          to 20 lines of text (1.5rem each) plus its top padding, so its lower edge falls between two lines of
          plain text rather than through one. */}
      <div
        tabIndex={0}
        role="region"
        aria-label={t('result.output')}
        className="mt-2 max-h-[31rem] overflow-auto overscroll-contain rounded-lg border border-slate-200 bg-slate-50 p-4 focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600"
        data-testid="result-text"
      >
        <MarkdownText>{text}</MarkdownText>
      </div>
      <details className="group mt-3" data-testid="result-raw">
        <summary className="cursor-pointer rounded text-sm font-medium text-brand-700 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
          {t('result.showRaw')}
        </summary>
        {jsonPanel}
      </details>
    </section>
  );
}

/** A run's output: the text result, or the file with its preview, details and download link. */
export function ResultOutput({ run }: { run: TExecution }) {
  const { t, i18n } = useTranslation('execute');
  const locale = i18n.resolvedLanguage === 'es' ? 'es-ES' : 'en-US';
  const download = resultDownloadUrl(run);
  const message = resultMessage(run.outputData);

  if (run.outputType === 'text' || (!run.outputType && run.outputData != null)) {
    return <TextResult outputData={run.outputData} />;
  }
  if (!run.outputType) return null;

  const kind = run.outputType === 'image' ? 'image' : fileKindOf(run.outputFilename ?? run.outputUrl);
  const isVideo = run.outputType === 'video' || isVideoUrl(run.outputUrl);
  const imageSrc = run.resultPath && !run.outputUrl ? `/result/${run.id}?inline=1` : run.outputUrl;
  const external = Boolean(download && !download.startsWith('/'));
  const expiry = run.fileExpiresAt ? formatDay(run.fileExpiresAt, locale) : null;

  return (
    <section aria-labelledby="result-output-title" className="text-left">
      <h2 id="result-output-title" className="text-sm font-semibold text-slate-900">
        {t('result.output')}
      </h2>
      {run.outputType === 'image' && imageSrc ? (
        <img
          src={imageSrc}
          alt={t('result.imageAlt', { name: run.outputFilename ?? '' })}
          className="mt-3 max-h-96 w-full rounded-lg border border-slate-200 bg-slate-50 object-contain"
          data-testid="result-image"
        />
      ) : null}
      {isVideo && run.outputUrl ? (
        <video
          controls
          src={run.outputUrl}
          className="mt-3 w-full rounded-lg bg-black"
          data-testid="result-video"
        >
          {t('result.videoUnsupported')}
        </video>
      ) : null}
      <div className="mt-3 flex flex-col gap-4 rounded-xl border border-slate-200 bg-slate-50 p-4 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-4">
          <FileKindIcon kind={isVideo ? 'video' : kind} />
          <div className="min-w-0">
            <p className="truncate font-medium text-slate-900" data-testid="result-filename">
              {run.outputFilename ?? t('result.unnamedFile')}
            </p>
            <p className="text-sm text-slate-700" data-testid="result-file-details">
              {t(`result.kind.${isVideo ? 'video' : kind}`)}
              {run.outputSize != null ? ` · ${formatFileSize(run.outputSize, locale)}` : ''}
            </p>
          </div>
        </div>
        {download ? (
          <Button asChild variant="secondary">
            <a
              href={download}
              download={external ? undefined : (run.outputFilename ?? true)}
              {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
              data-testid="result-download"
            >
              <Download className="size-4" aria-hidden="true" />
              {t('result.download')}
            </a>
          </Button>
        ) : null}
      </div>
      {run.fileExpired ? (
        <p
          className="mt-3 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="result-file-expired"
        >
          {t('result.fileExpired', { date: expiry ?? '' })}
        </p>
      ) : expiry && download && !external ? (
        <p className="mt-2 text-sm text-slate-700" data-testid="result-file-expiry">
          {t('result.fileExpiresOn', { date: expiry })}
        </p>
      ) : null}
      {message ? <MarkdownText className="mt-3">{message}</MarkdownText> : null}
    </section>
  );
}

function formatDay(iso: string, locale: string): string | null {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return null;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long' }).format(date);
}
