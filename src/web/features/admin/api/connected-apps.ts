import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** A user's connected OAuth apps, for the admin's dialog (only fetched while it is open). */
export function useUserConnectedApps(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.admin.connectedApps(userId ?? ''),
    queryFn: () => api.get('/api/admin/users/{id}/connected-apps', { path: { id: userId! } }),
    enabled: userId !== null,
    select: (list) => list.apps,
  });
}

export function useRevokeUserConnectedApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, appId }: { userId: string; appId: string }) =>
      api.delete('/api/admin/users/{id}/connected-apps/{appId}', { path: { id: userId, appId } }),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all }),
  });
}
