/** What other modules use of the mail module: writing a mail to the outbox, with links into the app. */
export { appLink, enqueueMail } from './outbox.js';
