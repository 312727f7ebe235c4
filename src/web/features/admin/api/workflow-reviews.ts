import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** A workflow's reviews as admins see them (hidden ones too), a page at a time. */
export function useAdminWorkflowReviews(
  workflowId: string | null,
  params: { limit: number; offset: number },
) {
  return useQuery({
    queryKey: queryKeys.admin.workflowReviews(workflowId ?? '', params),
    queryFn: () =>
      api.page('/api/admin/workflows/{id}/reviews', { path: { id: workflowId ?? '' }, query: params }),
    enabled: workflowId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Hides a review or shows it again; the rating moves, so the catalogue and its reviews refresh too. */
export function useModerateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: string } & ApiBody<'/api/admin/reviews/{id}', 'patch'>) =>
      api.patch('/api/admin/reviews/{id}', { path: { id }, body: { hidden } }),
    onSuccess: (review) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.reviews(review.workflowId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
