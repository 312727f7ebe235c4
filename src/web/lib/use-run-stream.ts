import { useEffect, useRef, useState } from 'react';

/** Reconnections in a row that bring no answer before the stream is given up for polling. */
const MAX_RECONNECTS = 3;

/**
 * Follows a run's server-sent events (`execution`, each carrying the whole of what the stream serves) while
 * `url` is set, handing each event's data to `onEvent`, which answers true once the run has ended (the stream
 * is then closed). A dropped stream reconnects by itself and resumes where it was (EventSource sends the last
 * event's id, and the server sends only what is new). Answers true once the stream is refused (too many open,
 * the run gone) or keeps failing, or when the browser has no EventSource: the caller polls instead.
 * The customer's run page and the admin's run detail both follow their runs through it.
 */
export function useRunStream(url: string | null, onEvent: (data: unknown) => boolean): boolean {
  const [broken, setBroken] = useState(() => typeof EventSource === 'undefined');
  // The latest handler, so that a new closure on each render does not reopen the stream.
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });

  useEffect(() => {
    if (!url || broken) return;
    const source = new EventSource(url);
    const onRun = (event: MessageEvent<string>) => {
      try {
        if (handler.current(JSON.parse(event.data) as unknown)) source.close();
      } catch {
        // A line we cannot read is skipped: the next event, or the polling fallback, carries the state.
      }
    };
    // The server names its events `execution`; unnamed ones are read the same way.
    source.addEventListener('execution', onRun);
    source.onmessage = onRun;
    let failures = 0;
    source.onopen = () => {
      failures = 0;
    };
    source.onerror = () => {
      // CONNECTING: EventSource is reconnecting by itself. CLOSED: the server refused the stream for good.
      failures += 1;
      if (source.readyState === EventSource.CLOSED || failures > MAX_RECONNECTS) {
        source.close();
        setBroken(true);
      }
    };
    return () => source.close();
  }, [url, broken]);

  return broken;
}
