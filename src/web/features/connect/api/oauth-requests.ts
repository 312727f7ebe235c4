import { useMutation, useQuery } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

/** An app's pending authorisation request, as the consent page shows it. */
export function useOAuthRequest(uid: string) {
  return useQuery({
    queryKey: queryKeys.oauthRequest(uid),
    queryFn: () => api.get('/api/oauth/requests/{uid}', { path: { uid } }),
    // A request is answered once: nothing to refetch, and a retry of a 404 only delays the message.
    retry: false,
    staleTime: Infinity,
  });
}

export function useApproveOAuthRequest(uid: string) {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/oauth/requests/{uid}/approve', 'post'>) =>
      api.post('/api/oauth/requests/{uid}/approve', { path: { uid }, body }),
  });
}

export function useDenyOAuthRequest(uid: string) {
  return useMutation({
    mutationFn: () => api.post('/api/oauth/requests/{uid}/deny', { path: { uid } }),
  });
}
