import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** What a test run's screen shows, whatever the workflow's state. */
export function useTestRunWorkflow(id: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.admin.testRunWorkflow(id),
    queryFn: () => api.get('/api/admin/workflows/{id}/test-run', { path: { id } }),
    enabled,
  });
}

/** Opens a test run: charged to no one; its answers go to the real webhook. */
export function useStartTestRun() {
  return useMutation({
    mutationFn: ({ workflowId, language }: { workflowId: string; language: 'es' | 'en' }) =>
      api.post('/api/admin/workflows/{id}/test-runs', { path: { id: workflowId }, body: { language } }),
  });
}
