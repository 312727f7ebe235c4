import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TMyReviewAnswer, TRatingSummary, TReviewInput, TReviewList } from '#shared/contract/reviews';
import { api, apiDelete } from './api';
import { queryKeys } from './query-keys';

const reviewsPath = (workflowId: string) => `/api/workflows/${encodeURIComponent(workflowId)}/reviews`;

/**
 * A workflow's reviews, newest first: the first `limit` of them ("show more" asks for a longer first page, so
 * the list never repeats or skips a review written meanwhile), with the reader's own and whether they may review.
 */
export function useWorkflowReviews(workflowId: string, limit: number, enabled = true) {
  return useQuery({
    queryKey: queryKeys.reviewsPage(workflowId, limit),
    queryFn: () => api<TReviewList>(`${reviewsPath(workflowId)}?limit=${limit}`),
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
    mutationFn: (input: TReviewInput) =>
      api<TMyReviewAnswer>(`${reviewsPath(workflowId)}/mine`, { method: 'PUT', body: input }),
    onSuccess: refresh,
  });
}

/** Deletes the reader's review. */
export function useDeleteReview(workflowId: string) {
  const refresh = useRefreshAfterReview(workflowId);
  return useMutation({
    mutationFn: () => apiDelete<{ rating: TRatingSummary }>(`${reviewsPath(workflowId)}/mine`),
    onSuccess: refresh,
  });
}
