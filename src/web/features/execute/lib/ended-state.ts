/** The navigation state the execute page hands its ended run over with (the run's own page shows its result). */
export const ENDED_STATE = { ended: true } as const;

export const endedStateOf = (state: unknown): boolean =>
  typeof state === 'object' && state !== null && (state as { ended?: unknown }).ended === true;
