import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TExecution } from '#shared/contract/executions';
import { Button } from '#web/components/ui/button';
import { FileKindIcon } from '#web/components/ui/file-kind-icon';
import { fileKindOf, formatFileSize, isVideoUrl, resultDownloadUrl } from '#web/components/ui/file-meta';

/** The message a workflow may attach to its result (`output_data.message`). */
export function resultMessage(outputData: unknown): string | null {
  if (!outputData || typeof outputData !== 'object') return null;
  const message = (outputData as { message?: unknown }).message;
  return typeof message === 'string' && message.trim() ? message : null;
}

/** A run's output: the JSON panel for text, or the file with its preview, details and download link. */
export function ResultOutput({ run }: { run: TExecution }) {
  const { t, i18n } = useTranslation('execute');
  const locale = i18n.resolvedLanguage === 'es' ? 'es-ES' : 'en-US';
  const download = resultDownloadUrl(run);
  const message = resultMessage(run.outputData);

  if (run.outputType === 'text' || (!run.outputType && run.outputData != null)) {
    const json =
      typeof run.outputData === 'string' ? run.outputData : JSON.stringify(run.outputData ?? null, null, 2);
    return (
      <section aria-labelledby="result-output-title">
        <h2 id="result-output-title" className="text-sm font-semibold text-slate-900">
          {t('result.output')}
        </h2>
        <pre
          tabIndex={0}
          aria-label={t('result.output')}
          className="mt-2 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded-lg bg-slate-900 p-4 text-left font-mono text-xs leading-5 text-slate-100"
          data-testid="result-json"
        >
          {json}
        </pre>
      </section>
    );
  }
  if (!run.outputType) return null;

  const kind = run.outputType === 'image' ? 'image' : fileKindOf(run.outputFilename ?? run.outputUrl);
  const isVideo = run.outputType === 'video' || isVideoUrl(run.outputUrl);
  const imageSrc = run.resultPath && !run.outputUrl ? `/result/${run.id}?inline=1` : run.outputUrl;
  const external = Boolean(download && !download.startsWith('/'));

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
      {message ? <p className="mt-3 text-sm leading-6 text-slate-800">{message}</p> : null}
    </section>
  );
}
