/** One server-sent event as a reader sees it. */
interface ReceivedEvent {
  event: string;
  id: string | null;
  data: string;
}

export interface EventReader {
  status: number;
  headers: Headers;
  /** The next event, or null once the stream has ended; fails after `deadlineMs` with what arrived so far. */
  next(deadlineMs?: number): Promise<ReceivedEvent | null>;
  /** The body of an answer that is not a stream (an error's JSON). */
  text(): Promise<string>;
  /** Goes away, as a closed browser tab does. */
  close(): void;
}

/**
 * Opens an event stream over real HTTP and reads it event by event, as EventSource does (a reader that
 * reconnects sends `last-event-id` itself).
 */
export async function readEvents(url: string, headers: Record<string, string> = {}): Promise<EventReader> {
  const controller = new AbortController();
  const res = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const streaming = res.ok && (res.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const reader = streaming ? res.body!.getReader() : null;
  const decoder = new TextDecoder();
  let buffer = '';
  let ended = !streaming;
  const parse = (block: string): ReceivedEvent | null => {
    let event = 'message';
    let id: string | null = null;
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const [field, ...rest] = line.split(':');
      const value = rest.join(':').replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'id') id = value;
      else if (field === 'data') data.push(value);
    }
    return data.length ? { event, id, data: data.join('\n') } : null;
  };
  return {
    status: res.status,
    headers: res.headers,
    async next(deadlineMs = 15_000) {
      const deadline = Date.now() + deadlineMs;
      for (;;) {
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = parse(block);
          if (event) return event;
        }
        if (ended || !reader) return null;
        const left = deadline - Date.now();
        let timer: NodeJS.Timeout | undefined;
        const chunk = await Promise.race([
          reader.read(),
          new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), Math.max(0, left)))),
        ]).finally(() => clearTimeout(timer));
        if (chunk === 'late') throw new Error(`no event within ${deadlineMs} ms; unread: ${buffer}`);
        if (chunk.done) ended = true;
        else buffer += decoder.decode(chunk.value, { stream: true });
      }
    },
    text: () => res.text(),
    close: () => controller.abort(),
  };
}
