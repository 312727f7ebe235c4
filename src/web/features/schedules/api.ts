import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TSchedule,
  TScheduleCreate,
  TSchedulePreviewRequest,
  TScheduleUpdate,
} from '#shared/contract/schedules';
import { api } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';

export function useSchedules() {
  return useQuery({
    queryKey: queryKeys.schedules(),
    queryFn: () => api.get('/api/schedules'),
    select: (list) => list.schedules,
  });
}

/** The next five times of a timing, as the server computes them (nothing stored); refused like a creation. */
export function useSchedulePreview(request: TSchedulePreviewRequest | null) {
  return useQuery({
    queryKey: queryKeys.schedulePreview(request),
    queryFn: () => api.post('/api/schedules/preview', { body: request! }),
    enabled: request !== null,
    retry: false,
    staleTime: 60_000,
  });
}

function useScheduleMutation<V>(call: (vars: V) => Promise<TSchedule | { ok: true }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.schedules() }),
  });
}

export const useCreateSchedule = () =>
  useScheduleMutation((body: TScheduleCreate) => api.post('/api/schedules', { body }));

export const useUpdateSchedule = () =>
  useScheduleMutation(({ id, ...body }: TScheduleUpdate & { id: string }) =>
    api.patch('/api/schedules/{id}', { path: { id }, body }),
  );

export const useDeleteSchedule = () =>
  useScheduleMutation((id: string) => api.delete('/api/schedules/{id}', { path: { id } }));
