import type { TUploadedInputFile } from '#shared/contract/executions';
import { isErrorCode } from '#shared/contract/errors';
import { currentLanguage } from '#web/i18n';
import { apiDelete, ApiError } from '#web/lib/api';

export interface UploadHandle {
  done: Promise<TUploadedInputFile>;
  abort(): void;
}

/**
 * Uploads one file as a question's answer. XMLHttpRequest rather than fetch: only it reports the upload's
 * progress (`onProgress` gets 0..1). Errors are ApiErrors with the server's text, already in the reader's
 * language (Accept-Language), so a refusal can say exactly what was wrong with this file.
 */
export function uploadRunFile(
  executionId: string,
  questionId: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<TUploadedInputFile>((resolve, reject) => {
    xhr.open('POST', `/api/executions/${encodeURIComponent(executionId)}/files`);
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // Not JSON (a proxy's page): the status still tells what happened.
      }
      if (xhr.status === 201) {
        onProgress(1);
        resolve(body as TUploadedInputFile);
        return;
      }
      const record = (body && typeof body === 'object' ? body : {}) as { error?: unknown; code?: unknown };
      const message = typeof record.error === 'string' && record.error ? record.error : `HTTP ${xhr.status}`;
      reject(new ApiError(message, xhr.status, isErrorCode(record.code) ? record.code : undefined, body));
    };
    xhr.onerror = () => reject(new TypeError('network error'));
    xhr.onabort = () => reject(new DOMException('aborted', 'AbortError'));
    // The question first: the server reads it before the file to know the file's limits.
    const form = new FormData();
    form.append('questionId', questionId);
    form.append('file', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** Removes an uploaded file so another can take its place. */
export function deleteRunFile(executionId: string, fileId: string): Promise<void> {
  return apiDelete<void>(
    `/api/executions/${encodeURIComponent(executionId)}/files/${encodeURIComponent(fileId)}`,
  );
}
