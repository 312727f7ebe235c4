import { Download, FileX } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TExecution } from '#shared/contract/executions';
import { resultDownloadUrl } from '#web/components/ui/file-meta';

/** The result column: the output type, the file name and its download link, or a dash. */
export function ResultCell({ run }: { run: TExecution }) {
  const { t } = useTranslation('executions');
  if (!run.outputType) return <span className="text-slate-600">—</span>;
  const href = resultDownloadUrl(run);
  const external = Boolean(href && !href.startsWith('/'));
  return (
    <div className="flex min-w-0 flex-col gap-0.5">
      <span className="text-xs font-medium uppercase tracking-wide text-slate-700">
        {t(`outputType.${run.outputType}`)}
      </span>
      {run.outputFilename ? (
        <span className="truncate text-sm text-slate-900" title={run.outputFilename}>
          {run.outputFilename}
        </span>
      ) : null}
      {run.fileExpired ? (
        <span
          className="inline-flex items-center gap-1 text-sm text-slate-700"
          title={t('fileExpiredHint')}
          data-testid="result-file-expired"
        >
          <FileX className="size-3.5" aria-hidden="true" />
          {t('fileExpired')}
        </span>
      ) : href ? (
        <a
          href={href}
          download={external ? undefined : (run.outputFilename ?? true)}
          {...(external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
          className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
        >
          <Download className="size-3.5" aria-hidden="true" />
          {t('download')}
          <span className="sr-only"> {run.outputFilename ?? ''}</span>
        </a>
      ) : null}
    </div>
  );
}
