import type { TFunction } from 'i18next';
import { useState } from 'react';
import { toast } from '#web/components/ui/toast';
import { errorMessage } from './error-key';

/** A change that takes no input (cancel the plan, rotate the secret, delete my review). */
interface InputlessMutation {
  isPending: boolean;
  mutate(variables: undefined, options: { onSuccess(): void; onError(err: Error): void }): void;
}

export type ConfirmedAction = ReturnType<typeof useConfirmedAction>;

/**
 * An action asked about first. `confirming` is whether the question is showing; `run` makes the change:
 * when it is done the question closes and `done` is toasted, when it fails `failed` is toasted with the
 * reason in the reader's language and the question stays, so it can be tried again.
 */
export function useConfirmedAction(
  mutation: InputlessMutation,
  t: TFunction,
  texts: { done: string; failed: string },
) {
  const [confirming, setConfirming] = useState(false);
  const run = () =>
    mutation.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        toast({ title: texts.done, variant: 'success' });
      },
      onError: (err) =>
        toast({ title: texts.failed, description: errorMessage(t, err), variant: 'destructive' }),
    });
  return { confirming, setConfirming, run, pending: mutation.isPending };
}
