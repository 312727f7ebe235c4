import type { Tx } from '#server/db/client.js';
import { queueAccountEvent } from '../webhooks/service.js';

/** A balance fell below the threshold its owner set (decision 142). */
export interface CreditsLowEvent {
  userId: string;
  balance: number;
  threshold: number;
  at: Date;
}

/**
 * Called once per fall below the threshold, inside the transaction that mails it (notification-mail job), so
 * whatever it writes is durable with the notice. The customer's webhooks (`credits.low`) enqueue their
 * deliveries here, in the same transaction.
 */
export async function onCreditsLow(tx: Tx, event: CreditsLowEvent): Promise<void> {
  await queueAccountEvent(tx, event.at, {
    userId: event.userId,
    type: 'credits.low',
    data: { balance: event.balance, threshold: event.threshold },
  });
}
