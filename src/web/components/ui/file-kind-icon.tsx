import { File, FileImage, FileSpreadsheet, FileText, FileVideo } from 'lucide-react';
import { cn } from '#web/lib/utils';
import type { FileKind } from './file-meta';

const LOOKS: Record<FileKind, { Icon: typeof File; className: string }> = {
  xlsx: { Icon: FileSpreadsheet, className: 'bg-green-100 text-green-800' },
  xls: { Icon: FileSpreadsheet, className: 'bg-green-100 text-green-800' },
  csv: { Icon: FileSpreadsheet, className: 'bg-teal-100 text-teal-800' },
  pdf: { Icon: FileText, className: 'bg-red-100 text-red-800' },
  image: { Icon: FileImage, className: 'bg-sky-100 text-sky-800' },
  video: { Icon: FileVideo, className: 'bg-violet-100 text-violet-800' },
  other: { Icon: File, className: 'bg-slate-100 text-slate-800' },
};

/** A coloured file icon telling spreadsheets, CSV, PDF, images and videos apart at a glance. */
export function FileKindIcon({ kind, className }: { kind: FileKind; className?: string }) {
  const { Icon, className: tone } = LOOKS[kind];
  return (
    <span
      className={cn('inline-flex size-10 shrink-0 items-center justify-center rounded-lg', tone, className)}
      aria-hidden="true"
    >
      <Icon className="size-5" />
    </span>
  );
}
