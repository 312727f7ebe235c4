import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Edits a workflow, or (with `{ isActive }` alone) activates or deactivates it. */
export function useUpdateWorkflow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ApiBody<'/api/admin/workflows/{id}', 'patch'> }) =>
      api.patch('/api/admin/workflows/{id}', { path: { id }, body: changes }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
