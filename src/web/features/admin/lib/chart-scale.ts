/** A step of 1, 2 or 5 times a power of ten (at least 1), so gridlines land on round whole numbers. */
export function niceStep(raw: number): number {
  if (raw <= 1) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

/** The gridline values: from 0 to the first round value at or above the largest bar; 0–4 for small counts. */
export function axisTicks(max: number): number[] {
  const step = niceStep(max / 4);
  const steps = max <= 4 ? 4 : Math.ceil(max / step);
  return Array.from({ length: steps + 1 }, (_, i) => i * step);
}
