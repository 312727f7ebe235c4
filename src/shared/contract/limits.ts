// Plain constants (no zod) so the first web bundle can use them without pulling the schema library in.
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
