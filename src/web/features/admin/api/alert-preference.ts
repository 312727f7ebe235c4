import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** Whether this admin gets the workflow alert mails, and the switch that changes it. */
export function useAlertPreference() {
  return useQuery({
    queryKey: queryKeys.admin.alertPreference(),
    queryFn: () => api.get('/api/admin/alerts/me'),
  });
}

export function useSetAlertPreference() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (workflowAlerts: boolean) => api.put('/api/admin/alerts/me', { body: { workflowAlerts } }),
    onSuccess: (answer) => queryClient.setQueryData(queryKeys.admin.alertPreference(), answer),
  });
}
