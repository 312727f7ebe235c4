import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { sendDueMails } from '../modules/mail/sender.js';
import type { AppDeps } from '../types.js';
import { vi } from 'vitest';
import { buildTestApp, type TestApp } from './harness.js';

/** A real SMTP server on loopback that keeps every mail it accepts, parsed. */
export interface TestSmtp {
  url: string;
  port: number;
  mails: ParsedMail[];
  /** Stops listening (connections are refused) until start() is called again on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Waits until at least `count` mails have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<ParsedMail[]>;
  /** Mails to one address, oldest first. */
  to(address: string): ParsedMail[];
}

/** `refuse`: recipients the server answers 550 for (a permanent refusal). */
export async function startTestSmtp(
  options: { refuse?: (address: string) => boolean } = {},
): Promise<TestSmtp> {
  const mails: ParsedMail[] = [];
  let server: SMTPServer | null = null;
  let port = 0;
  const listen = async () => {
    const s = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onRcptTo(address, _session, callback) {
        if (options.refuse?.(address.address)) {
          callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
        } else callback();
      },
      onData(stream, _session, callback) {
        simpleParser(stream).then(
          (mail) => {
            mails.push(mail);
            callback();
          },
          (err: Error) => callback(err),
        );
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    port = (s.server.address() as AddressInfo).port;
    server = s;
  };
  await listen();
  const smtp: TestSmtp = {
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    get port() {
      return port;
    },
    mails,
    stop: async () => {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
    start: listen,
    waitFor: async (count, timeoutMs = 10_000) => {
      await vi.waitFor(
        () => {
          if (mails.length < count) throw new Error(`expected ${count} mails, got ${mails.length}`);
        },
        { timeout: timeoutMs, interval: 20 },
      );
      return mails;
    },
    to: (address) =>
      mails.filter((m) => {
        const to = Array.isArray(m.to) ? m.to : m.to ? [m.to] : [];
        return to.some((a) => a.value.some((v) => v.address?.toLowerCase() === address.toLowerCase()));
      }),
  };
  return smtp;
}

/** The first link of a mail's text part that points at `path` of the app. */
export function linkIn(mail: ParsedMail, path: string): string {
  const match = new RegExp(`https?://\\S+${path.replace(/[/?]/g, (c) => `\\${c}`)}\\S*`).exec(
    mail.text ?? '',
  );
  if (!match) throw new Error(`no ${path} link in: ${mail.text}`);
  return match[0];
}

export function tokenOf(link: string): string {
  const token = new URL(link).searchParams.get('token');
  if (!token) throw new Error(`no token in ${link}`);
  return token;
}

/** The whole app with a real SMTP server behind SMTP_URL, and the mail job's dependencies. */
export interface MailTestApp {
  smtp: TestSmtp;
  t: TestApp;
  deps: AppDeps;
  /** Runs the mail job, then waits for the newest mail to `email` whose subject matches. */
  newestMail(email: string, subject: RegExp): Promise<ParsedMail>;
  close(): Promise<void>;
}

export async function buildMailTestApp(
  smtpOptions: Parameters<typeof startTestSmtp>[0] = {},
  env: Record<string, string> = {},
): Promise<MailTestApp> {
  const smtp = await startTestSmtp(smtpOptions);
  const t = await buildTestApp({ ...env, SMTP_URL: smtp.url });
  const deps: AppDeps = t.deps;
  return {
    smtp,
    t,
    deps,
    newestMail: async (email, subject) => {
      await sendDueMails(deps);
      return vi.waitFor(
        () => {
          const found = smtp.to(email).filter((m) => subject.test(m.subject ?? ''));
          if (found.length === 0) throw new Error(`no mail "${subject}" to ${email}`);
          return found.at(-1)!;
        },
        { timeout: 10_000, interval: 20 },
      );
    },
    close: async () => {
      await t.close();
      await smtp.stop();
    },
  };
}
