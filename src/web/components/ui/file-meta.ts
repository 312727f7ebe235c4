/** Facts about a run's result file, shared by the result screen and the history table. */

const KB = 1024;
const MB = 1024 * KB;

/** Bytes as B, KB or MB; KB and MB with two decimals in the reader's number format. */
export function formatFileSize(bytes: number, locale: string): string {
  if (bytes < KB) return `${Math.max(0, Math.round(bytes))} B`;
  const two = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return bytes < MB ? `${two.format(bytes / KB)} KB` : `${two.format(bytes / MB)} MB`;
}

export type FileKind = 'xlsx' | 'xls' | 'csv' | 'pdf' | 'image' | 'video' | 'other';

const IMAGE = /\.(png|jpe?g|gif|webp|svg)$/i;
const VIDEO = /\.(mp4|webm|ogg|mov)$/i;

/** The kind of file by its name's extension (the icon and label it gets). */
export function fileKindOf(filename: string | null | undefined): FileKind {
  const name = (filename ?? '').split(/[?#]/)[0] ?? '';
  const ext = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (ext === 'xlsx' || ext === 'xls' || ext === 'csv' || ext === 'pdf') return ext;
  if (IMAGE.test(name)) return 'image';
  if (VIDEO.test(name)) return 'video';
  return 'other';
}

/** Whether a URL points at a video the browser can play. */
export function isVideoUrl(url: string | null | undefined): boolean {
  return fileKindOf(url) === 'video';
}

/** The download rule: our own copy when the file is stored here and no outside URL was given. */
export function resultDownloadUrl(run: {
  id: string;
  resultPath: string | null;
  outputUrl: string | null;
}): string | null {
  if (run.resultPath && !run.outputUrl) return `/result/${run.id}`;
  return run.outputUrl ?? null;
}
