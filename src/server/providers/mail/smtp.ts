interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Stable per outbox row, so a receiver can tell a resend after a crash from a new mail. */
  messageId: string;
  language: string;
}

export interface MailTransport {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Why a send failed, and whether trying again later can help. */
export class MailSendError extends Error {
  constructor(
    message: string,
    /** A 5xx SMTP answer: the server refused this mail for good (bad address, policy). */
    readonly permanent: boolean,
  ) {
    super(message);
  }
}

/** SMTP through nodemailer: smtp:// upgrades with STARTTLS when the server offers it, smtps:// is TLS at once. */
export function smtpTransport(smtpUrl: string): MailTransport {
  // The library is loaded here, not imported with this module: a server makes its transport with its first mail,
  // and most starts send none (decision 197).
  const ready = import('nodemailer').then(({ default: nodemailer }) =>
    nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    }),
  );
  // Reported by the first send that needs it, not as an unhandled rejection.
  ready.catch(() => undefined);
  return {
    async send(message) {
      const smtp = await ready;
      try {
        await smtp.sendMail({
          from: message.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
          headers: { 'Content-Language': message.language, 'Auto-Submitted': 'auto-generated' },
        });
      } catch (err) {
        const code = (err as { responseCode?: unknown }).responseCode;
        const permanent = typeof code === 'number' && code >= 500 && code < 600;
        // nodemailer's messages name the server and its answer, never the credentials of the URL.
        const text = err instanceof Error ? err.message : String(err);
        throw new MailSendError(text.slice(0, 500), permanent);
      }
    },
    close: () =>
      void ready.then(
        (smtp) => smtp.close(),
        () => undefined,
      ),
  };
}
