import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Suspends or reactivates an account (suspension ends its sessions at once on the server). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: ApiBody<'/api/admin/users/{id}', 'patch'> }) =>
      api.patch('/api/admin/users/{id}', { path: { id }, body: changes }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
