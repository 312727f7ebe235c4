/**
 * A rough time ("about X" of a workflow's health), as the catalogue and the MCP tools' descriptions write it:
 * seconds under a minute, minutes under an hour, else hours, rounded to a whole unit (at least 1 s), in the
 * locale's own unit words ("45 s", "3 min", "2 h").
 */
export function formatRoughDuration(ms: number, locale: string): string {
  const [value, unit] =
    ms < 60_000
      ? [Math.max(1, Math.round(ms / 1000)), 'second']
      : ms < 3_600_000
        ? [Math.round(ms / 60_000), 'minute']
        : [Math.round(ms / 3_600_000), 'hour'];
  return new Intl.NumberFormat(locale, { style: 'unit', unit, unitDisplay: 'short' }).format(value);
}
