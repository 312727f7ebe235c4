import { currentLanguage } from '#web/i18n';
import { api, apiErrorFrom, type ApiAnswer } from '#web/lib/api-client';

/** What the upload answers: the file's id, name, type and size, to send as the question's answer. */
type UploadedFile = ApiAnswer<'/api/executions/{id}/files', 'post'>;

export interface UploadHandle {
  done: Promise<UploadedFile>;
  abort(): void;
}

/**
 * Uploads one file as a question's answer. XMLHttpRequest rather than fetch: only it reports the upload's
 * progress (`onProgress` gets 0..1). A refusal is an ApiError like any other call's, whose code and key say
 * exactly what was wrong with this file (error-key.ts words it).
 */
export function uploadRunFile(
  executionId: string,
  questionId: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.open('POST', api.url('/api/executions/{id}/files', { path: { id: executionId } }));
    xhr.withCredentials = true;
    xhr.setRequestHeader('accept', 'application/json');
    xhr.setRequestHeader('accept-language', currentLanguage());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status !== 201) {
        // The same rules as every other call (api-client.ts): a proxy's page is 'Request failed'.
        reject(apiErrorFrom(xhr.status, xhr.responseText));
        return;
      }
      onProgress(1);
      try {
        resolve(JSON.parse(xhr.responseText) as UploadedFile);
      } catch (err) {
        reject(err instanceof Error ? err : new Error('unreadable answer'));
      }
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
export async function deleteRunFile(executionId: string, fileId: string): Promise<void> {
  await api.delete('/api/executions/{id}/files/{fileId}', { path: { id: executionId, fileId } });
}
