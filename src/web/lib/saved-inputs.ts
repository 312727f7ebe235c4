import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSavedInput } from '#shared/contract/saved-inputs';
import { currentLanguage } from '#web/i18n';
import { api, apiErrorFrom, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/*
 * Saved answers, used by the execute screens (save, edit) and the saved answers page (list, run, rename,
 * delete): one set of calls and one cache key for both.
 */

/** A file kept with saved answers, as the saved answers list names it. */
export type KeptFile = Pick<TSavedInput['files'][number], 'questionId' | 'fileId' | 'filename' | 'size'>;

/** What "edit" on the saved answers page hands the execute screen: the saved answers to change. */
export interface EditSavedState {
  saved: { id: string; name: string; answers: Record<string, unknown>; files?: KeptFile[] };
}

export function useSavedInputs() {
  return useQuery({ queryKey: queryKeys.savedInputs(), queryFn: () => api.get('/api/saved-inputs') });
}

function useRefreshing<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.savedInputs() }),
  });
}

/** Saves the answers of a form without running them. */
export const useSaveAnswers = () =>
  useRefreshing((body: ApiBody<'/api/saved-inputs', 'post'>) => api.post('/api/saved-inputs', { body }));

/** Saves the answers one of the person's runs sent. */
export const useSaveRunAnswers = () =>
  useRefreshing((body: ApiBody<'/api/saved-inputs/from-run', 'post'>) =>
    api.post('/api/saved-inputs/from-run', { body }),
  );

export const useUpdateSavedInput = () =>
  useRefreshing(({ id, ...body }: ApiBody<'/api/saved-inputs/{id}', 'patch'> & { id: string }) =>
    api.patch('/api/saved-inputs/{id}', { path: { id }, body }),
  );

export const useDeleteSavedInput = () =>
  useRefreshing((id: string) => api.delete('/api/saved-inputs/{id}', { path: { id } }));

/** Runs saved answers now: charged and sent at once; the answer names the run to open. */
export const useRunSavedInput = () =>
  useRefreshing((id: string) => api.post('/api/saved-inputs/{id}/run', { path: { id } }));

/**
 * Keeps a file as the answer to one file question of saved answers (replacing the one kept before). A
 * multipart PUT, so fetch rather than the typed client; a refusal is an ApiError like any other call's.
 */
export const useKeepSavedFile = () =>
  useRefreshing(async ({ id, questionId, file }: { id: string; questionId: string; file: File }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    const res = await fetch(
      api.url('/api/saved-inputs/{id}/files/{questionId}', { path: { id, questionId } }),
      {
        method: 'PUT',
        credentials: 'include',
        headers: { accept: 'application/json', 'accept-language': currentLanguage() },
        body: form,
      },
    );
    const text = await res.text();
    if (!res.ok) throw apiErrorFrom(res.status, text);
    return JSON.parse(text) as TSavedInput;
  });
