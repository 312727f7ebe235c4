/** The assistant's reply to one message: as written (marker included) and what the run still allows. */
export interface ChatReply {
  content: string;
  remaining: number;
}

/**
 * A message accepted and counted against its run's allowance, waiting for the assistant's reply. Exactly one
 * of `complete` or `stream` is called: on success the message and its reply are added to the transcript
 * together; on any failure (the model failed, the caller stopped it) nothing is added and the message is
 * given back to the allowance, so the transcript never holds half a reply.
 */
export interface PendingChatReply {
  runId: string;
  complete(): Promise<ChatReply>;
  /** The reply as it is written: `onPiece` gets each piece; aborting `signal` stops the model call. */
  stream(signal: AbortSignal, onPiece: (piece: string) => void): Promise<ChatReply>;
}
