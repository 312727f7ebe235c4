import { useMutation } from '@tanstack/react-query';
import { api, type ApiBody } from '#web/lib/api-client';

/** Machine translation through the server's LLM provider (503 NOT_CONFIGURED when there is none). */
export function useTranslateText() {
  return useMutation({
    mutationFn: (body: ApiBody<'/api/admin/translate', 'post'>) => api.post('/api/admin/translate', { body }),
  });
}
