import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ZChatRequest, ZChatResponse } from '#shared/contract/chat';
import { apiPost } from '#web/lib/api';

type ChatRequest = z.infer<typeof ZChatRequest>;
type ChatResponse = z.infer<typeof ZChatResponse>;

/** Asks the workflow's assistant for its next message. */
export function useSendChatMessage() {
  return useMutation({
    mutationFn: (body: ChatRequest) => apiPost<ChatResponse>('/api/chat', body),
  });
}
