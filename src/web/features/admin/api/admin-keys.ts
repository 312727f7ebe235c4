/** Every admin query starts with this key, so a mutation can refresh the whole panel (lists, stats, audit). */
export const ADMIN_KEY = ['admin'] as const;
/** The catalogue's query key (its first key is the path it GETs); admin changes to workflows refresh it. */
export const PUBLIC_WORKFLOWS_KEY = ['/api/workflows/public'] as const;
