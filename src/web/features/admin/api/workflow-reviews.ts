import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAdminReview, TAdminReviewUpdate } from '#shared/contract/reviews';
import { apiPatch } from '#web/lib/api';
import { queryKeys } from '#web/lib/query-keys';
import { fetchPage } from './list-fetcher';

/** A workflow's reviews as admins see them (hidden ones too), a page at a time. */
export function useAdminWorkflowReviews(
  workflowId: string | null,
  params: { limit: number; offset: number },
) {
  return useQuery({
    queryKey: queryKeys.admin.workflowReviews(workflowId ?? '', params),
    queryFn: () =>
      fetchPage<TAdminReview>(`/api/admin/workflows/${encodeURIComponent(workflowId ?? '')}/reviews`, params),
    enabled: workflowId !== null,
    placeholderData: keepPreviousData,
  });
}

/** Hides a review or shows it again; the rating moves, so the catalogue and its reviews refresh too. */
export function useModerateReview() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, hidden }: { id: string } & TAdminReviewUpdate) =>
      apiPatch<TAdminReview>(`/api/admin/reviews/${encodeURIComponent(id)}`, { hidden }),
    onSuccess: (review) => {
      void queryClient.invalidateQueries({ queryKey: queryKeys.admin.all });
      void queryClient.invalidateQueries({ queryKey: queryKeys.reviews(review.workflowId) });
      void queryClient.invalidateQueries({ queryKey: queryKeys.publicWorkflows() });
    },
  });
}
