import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';
import { queryKeys } from '#web/lib/query-keys';
import { refreshMe } from '#web/lib/session';

export interface PurchaseInput {
  body: ApiBody<'/api/credits/purchase', 'post'>;
  /** The same key for a repeated attempt at the same purchase, so it is never granted twice. */
  idempotencyKey: string;
}

/** Buys a plan; on success the balance badge, the history and the monthly plan refresh. */
export function usePurchaseCredits() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: PurchaseInput) =>
      api.post('/api/credits/purchase', { body, headers: { 'idempotency-key': idempotencyKey } }),
    onSuccess: async (answer) => {
      if (answer.status !== 'completed') return;
      await Promise.all([
        refreshMe(queryClient),
        queryClient.invalidateQueries({ queryKey: queryKeys.transactions() }),
        queryClient.invalidateQueries({ queryKey: queryKeys.subscription() }),
      ]);
    },
  });
}

/** A fresh key for a new purchase attempt (randomUUID needs a secure context, so fall back to random bytes). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join(
    '',
  );
}
