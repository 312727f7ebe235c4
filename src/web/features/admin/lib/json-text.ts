const PREVIEW_CHARS = 50;

/** The audit table's preview: the first 50 characters of the details as JSON, with an ellipsis if cut. */
export function jsonPreview(value: unknown): string {
  const json = JSON.stringify(value) ?? '';
  return json.length > PREVIEW_CHARS ? `${json.slice(0, PREVIEW_CHARS)}…` : json;
}

/** Parses an admin's text as JSON, or gives the parser's message to show under the field. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (err) {
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}
