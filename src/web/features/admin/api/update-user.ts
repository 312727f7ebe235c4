import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminUser, TAdminUserUpdate } from '#shared/contract/admin';
import { apiPatch } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

/** Suspends or reactivates an account (suspension ends its sessions at once on the server). */
export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: TAdminUserUpdate }) =>
      apiPatch<TAdminUser>(`/api/admin/users/${encodeURIComponent(id)}`, changes),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
