/** What other modules use of the mail module: writing a mail to the outbox, with links into the app; its backlog. */
export { appLink, enqueueMail, outboxBacklog, type OutboxBacklog } from './outbox.js';
