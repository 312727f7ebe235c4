import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TAdminConfigEntry } from '#shared/contract/admin';
import { apiPatch } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';

export function useUpdateConfig() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, value }: { id: string; value: unknown }) =>
      apiPatch<TAdminConfigEntry>(`/api/admin/config/${encodeURIComponent(id)}`, { value }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
