import { COMPLETION_MARKERS, splitCompletionMarker } from '#shared/contract/chat.js';

const LONGEST_MARKER = Math.max(...COMPLETION_MARKERS.map((m) => m.length));
// Compared in upper case, as the marker pattern ignores case.
const MARKERS = COMPLETION_MARKERS.map((m) => m.toUpperCase());

/** Whether `tail` could still grow into a completion marker (it is the start of one). */
function couldBeMarker(tail: string): boolean {
  const upper = tail.toUpperCase();
  return MARKERS.some((marker) => marker.startsWith(upper));
}

/** Where the part of `text` that may be the start of a marker begins (text.length when none does). */
function heldFrom(text: string): number {
  const from = Math.max(0, text.length - LONGEST_MARKER + 1);
  for (let i = text.indexOf('[', from); i !== -1; i = text.indexOf('[', i + 1)) {
    if (couldBeMarker(text.slice(i))) return i;
  }
  return text.length;
}

/**
 * Turns a reply's pieces, as the model writes them, into the text a reader may see so far. The completion
 * marker is read on the whole reply: a marker split over several pieces is found, and it never reaches the
 * reader, because any tail that could be the start of one is held back until the next piece says what it is.
 * What is shown only ever grows, so every call returns just the new part (possibly empty).
 */
export function createMarkerFilter(): {
  push(piece: string): string;
  flush(): string;
  readonly text: string;
} {
  let whole = '';
  let shown = '';
  const next = (visible: string): string => {
    // Removing a completed marker only ever drops text that was held back, so `shown` stays a prefix.
    if (!visible.startsWith(shown)) return '';
    const delta = visible.slice(shown.length);
    shown = visible;
    return delta;
  };
  const withoutMarkers = () => {
    const { text } = splitCompletionMarker(`${whole}\u0000`);
    // splitCompletionMarker trims; the sentinel keeps the trailing spaces of a reply still being written.
    return text.endsWith('\u0000') ? text.slice(0, -1) : text;
  };
  return {
    push(piece) {
      whole += piece;
      const visible = withoutMarkers();
      return next(visible.slice(0, heldFrom(visible)));
    },
    /** The reply is over: whatever was held back and turned out not to be a marker. */
    flush() {
      return next(withoutMarkers().trimEnd());
    },
    get text() {
      return whole;
    },
  };
}
