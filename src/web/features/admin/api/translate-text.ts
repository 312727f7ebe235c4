import { useMutation } from '@tanstack/react-query';
import type { TTranslateRequest, TTranslateResponse } from '#shared/contract/translate';
import { apiPost } from '#web/lib/api';

/** Machine translation through the server's LLM provider (503 NOT_CONFIGURED when there is none). */
export function useTranslateText() {
  return useMutation({
    mutationFn: (body: TTranslateRequest) => apiPost<TTranslateResponse>('/api/admin/translate', body),
  });
}
