import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** A workflow's history, newest first (the latest 200 versions: the page shows no more). */
export function useWorkflowVersions(id: string) {
  return useQuery(
    queryOptions({
      queryKey: queryKeys.admin.workflowVersions(id),
      queryFn: () =>
        api.get('/api/admin/workflows/{id}/versions', { path: { id }, query: { limit: 200, offset: 0 } }),
    }),
  );
}

/** One version with what it kept; not read until a version is chosen. */
export function useWorkflowVersion(id: string, version: number | null) {
  return useQuery({
    queryKey: queryKeys.admin.workflowVersion(id, version ?? 0),
    queryFn: () =>
      api.get('/api/admin/workflows/{id}/versions/{version}', { path: { id, version: version ?? 0 } }),
    enabled: version !== null,
  });
}

/** Every change to a workflow refreshes the whole panel and the catalogue. */
function useWorkflowChange<V>(mutationFn: (vars: V) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}

/** Makes an earlier version current again, as a new version. */
export function useRestoreVersion() {
  return useWorkflowChange(({ id, version }: { id: string; version: number }) =>
    api.post('/api/admin/workflows/{id}/versions/{version}/restore', { path: { id, version } }),
  );
}

/** Archives a workflow (`archived: true`) or brings it back. */
export function useArchiveWorkflow() {
  return useWorkflowChange(({ id, archived }: { id: string; archived: boolean }) =>
    archived
      ? api.post('/api/admin/workflows/{id}/archive', { path: { id } })
      : api.post('/api/admin/workflows/{id}/unarchive', { path: { id } }),
  );
}
