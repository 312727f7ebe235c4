import { useMutation } from '@tanstack/react-query';
import type { TLanguage } from '../../../../shared/contract/common';
import { apiPost } from '../../../lib/api';

// POST /api/admin/translate has no schema in shared/contract/admin.ts yet; these mirror the brief's shape.
export interface TranslateRequest {
  text: string;
  targetLanguage: TLanguage;
}
export interface TranslateResponse {
  translation: string;
}

/** Machine translation through the server's LLM provider (503 NOT_CONFIGURED when there is none). */
export function useTranslateText() {
  return useMutation({
    mutationFn: (body: TranslateRequest) => apiPost<TranslateResponse>('/api/admin/translate', body),
  });
}
