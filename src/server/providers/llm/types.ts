/** One turn of a conversation as chat-completions APIs understand it. */
export interface LlmMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface LlmCompletionRequest {
  system: string;
  messages: LlmMessage[];
  temperature?: number;
  /** The person's last message in this run: the reply must wrap up (sum up and end the conversation). */
  final?: boolean;
}

/** Whatever writes the assistant's next reply: a real LLM or the built-in scripted assistant. */
export interface LlmProvider {
  complete(request: LlmCompletionRequest): Promise<string>;
  /**
   * The same reply, piece by piece as it is written. Ends normally only when the whole reply was received;
   * aborting `signal` stops the call (the model stops writing, the iteration throws).
   */
  stream(request: LlmCompletionRequest, signal: AbortSignal): AsyncIterable<string>;
}

/** The LLM could not give an answer; the message is safe to show (it never carries the API key). */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly reason: 'timeout' | 'network' | 'http' | 'invalid-response' | 'aborted',
  ) {
    super(message);
    this.name = 'LlmError';
  }
}
