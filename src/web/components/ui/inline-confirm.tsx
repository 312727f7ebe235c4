import type { ConfirmedAction } from '#web/lib/use-confirmed-action';
import { Button } from './button';

/**
 * The answers to a question asked in place rather than in a dialog: keep things as they are, or go ahead
 * with a change that cannot be undone (disabled while it is on its way).
 */
export function InlineConfirmButtons({
  action,
  cancelLabel,
  confirmLabel,
}: {
  action: ConfirmedAction;
  cancelLabel: string;
  confirmLabel: string;
}) {
  return (
    <>
      <Button variant="secondary" size="sm" onClick={() => action.setConfirming(false)}>
        {cancelLabel}
      </Button>
      <Button variant="destructive" size="sm" onClick={action.run} disabled={action.pending}>
        {confirmLabel}
      </Button>
    </>
  );
}
