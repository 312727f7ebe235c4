// Where toasts sit, shared by the toaster (toaster.tsx) and the screens that keep clear of it (toast.tsx).

/** Room kept free under the toasts on wider screens, set while a screen's bottom control is on view. */
export const RESERVE_VAR = '--toast-bottom-reserve';
export const EDGE_PX = 24;
