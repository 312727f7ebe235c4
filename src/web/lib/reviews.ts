import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from './api-client';
import { queryKeys } from './query-keys';

/**
 * A workflow's reviews, newest first: the first `limit` of them ("show more" asks for a longer first page, so
 * the list never repeats or skips a review written meanwhile), with the reader's own and whether they may review.
 */
export function useWorkflowReviews(workflowId: string, limit: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.reviewsPage(workflowId, limit),
    queryFn: () => api.get('/api/workflows/{id}/reviews', { path: { id: workflowId }, query: { limit } }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** A review's change moves the workflow's rating: the catalogue and the execute screen show it too. */
function useRefreshAfterReview(workflowId: string) {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.reviews(workflowId) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflow(workflowId) });
  };
}

/** Creates or changes the reader's review. */
export function useSaveReview(workflowId: string) {
  const refresh = useRefreshAfterReview(workflowId);
  return useMutation({
    mutationFn: (body: ApiBody<'/api/workflows/{id}/reviews/mine', 'put'>) =>
      api.put('/api/workflows/{id}/reviews/mine', { path: { id: workflowId }, body }),
    onSuccess: refresh,
  });
}

/** Deletes the reader's review. */
export function useDeleteReview(workflowId: string) {
  const refresh = useRefreshAfterReview(workflowId);
  return useMutation({
    mutationFn: () => api.delete('/api/workflows/{id}/reviews/mine', { path: { id: workflowId } }),
    onSuccess: refresh,
  });
}
