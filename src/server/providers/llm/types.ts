/** One turn of a conversation as chat-completions APIs understand it. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmCompletionRequest {
  system: string;
  messages: LlmMessage[];
  temperature?: number;
}

/** Whatever writes the assistant's next reply: a real LLM or the built-in scripted assistant. */
export interface LlmProvider {
  complete(request: LlmCompletionRequest): Promise<string>;
}

/** The LLM could not give an answer; the message is safe to show (it never carries the API key). */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'network' | 'http' | 'invalid-response',
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
