import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '#shared/contract/errors';
import { ApiError } from '#web/lib/api-client';
import { messageLimitOf, readAssistantReply } from './chat-transcript';

describe('readAssistantReply', () => {
  it('passes an ordinary reply through', () => {
    expect(readAssistantReply('Tell me more', 'Thanks')).toEqual({ done: false, text: 'Tell me more' });
  });
  it('strips the English and Spanish markers in any case', () => {
    expect(readAssistantReply('All set. [CONVERSATION_COMPLETE]', 'Thanks')).toEqual({
      done: true,
      text: 'All set.',
    });
    expect(readAssistantReply('Listo [conversación_completada]', 'Gracias')).toEqual({
      done: true,
      text: 'Listo',
    });
    expect(readAssistantReply('[CONVERSACION_COMPLETADA] Hecho', 'Gracias').text).toBe('Hecho');
  });
  it('uses the thank-you text when only the marker was sent', () => {
    expect(readAssistantReply('  [CONVERSATION_COMPLETE]  ', 'Thank you!')).toEqual({
      done: true,
      text: 'Thank you!',
    });
  });
});

describe('messageLimitOf', () => {
  const refused = (code: ErrorCode, details?: unknown) =>
    new ApiError('refused', 400, code, { error: 'refused', code, details });
  it('reads the limit of a message the server found too long', () => {
    expect(
      messageLimitOf(
        refused('VALIDATION_ERROR', {
          fields: [{ field: 'messages.0.content', message: 'at most 2000 characters' }],
          limit: 2000,
        }),
      ),
    ).toBe(2000);
  });
  it('gives null for any other failure', () => {
    expect(messageLimitOf(refused('VALIDATION_ERROR'))).toBeNull();
    expect(messageLimitOf(refused('CONFLICT', { limit: 40 }))).toBeNull();
    expect(messageLimitOf(new TypeError('network'))).toBeNull();
  });
});
