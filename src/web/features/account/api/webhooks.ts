import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TWebhookCreate } from '#shared/contract/webhooks';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useWebhooks() {
  return useQuery({
    queryKey: queryKeys.webhooks(),
    queryFn: () => api.get('/api/account/webhooks'),
    select: (list) => list.webhooks,
  });
}

/** The workflows an endpoint may be limited to: the catalogue's. */
export function useWebhookWorkflowChoices() {
  return useQuery({
    queryKey: queryKeys.publicWorkflows(),
    queryFn: () => api.get('/api/workflows/public'),
  });
}

/** The endpoint's latest deliveries; while the log is open it follows new attempts every few seconds. */
export function useWebhookDeliveries(id: string, open: boolean) {
  return useQuery({
    queryKey: queryKeys.webhookDeliveries(id),
    queryFn: () => api.get('/api/account/webhooks/{id}/deliveries', { path: { id } }),
    select: (list) => list.deliveries,
    enabled: open,
    refetchInterval: open ? 2000 : false,
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return (id?: string) => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.webhooks() });
    if (id) void queryClient.invalidateQueries({ queryKey: queryKeys.webhookDeliveries(id) });
  };
}

/** Adds an endpoint; the answer is the only time its secret is seen. */
export function useCreateWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (body: TWebhookCreate) => api.post('/api/account/webhooks', { body }),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete('/api/account/webhooks/{id}', { path: { id } }),
    onSuccess: () => invalidate(),
  });
}

export function useTestWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/account/webhooks/{id}/test', { path: { id } }),
    onSuccess: (_answer, id) => invalidate(id),
  });
}

export function useRedeliverWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (ids: { id: string; deliveryId: string }) =>
      api.post('/api/account/webhooks/{id}/deliveries/{deliveryId}/redeliver', { path: ids }),
    onSuccess: (_answer, ids) => invalidate(ids.id),
  });
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export function useRotateWebhookSecret() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/account/webhooks/{id}/rotate-secret', { path: { id } }),
    onSuccess: () => invalidate(),
  });
}

export function useEnableWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.post('/api/account/webhooks/{id}/enable', { path: { id } }),
    onSuccess: () => invalidate(),
  });
}
