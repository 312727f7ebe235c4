import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { type APIRequestContext, expect, request } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import { pgliteLedger } from './ledger-teardown.js';
import {
  expectAccessible,
  expectResultScreen,
  fillSurvey,
  type Lng,
  screenshot,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * Issue 26's journey (decisions 144-147), in both languages: a workflow's service on loopback starts failing
 * (each call answers HTTP 500, and its retry reports the failure), the admins are alerted by mail (over SMTP, to
 * a real SMTP server on loopback), the workflow pauses itself at the fifth failure in a row, the catalogue shows
 * it unavailable, the admin opens a failed run and sees the 500s in its delivery timeline, the service is
 * mended, a test run succeeds without charging anyone, the admin resumes the workflow, a customer runs it, and
 * the admins are told it recovered.
 * The journeys' shared server has no SMTP server (with one, every journey's customer would have to verify their
 * address before a run), so this journey starts the app once more, as `npm start` runs it, on a database of its
 * own, sending its mail to the SMTP server here; its customer verifies their address from the mail, as anyone
 * would. Nothing of the shared server is touched, so it runs among the other journeys, each language on a
 * worker of its own, each with its own server, SMTP server and service (decision 192).
 */

interface Mail {
  to: string[];
  subject: string;
  text: string;
}

/** A real SMTP server on loopback that keeps every mail it accepts. */
async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream).then(
        (mail) => {
          const to = [mail.to ?? []].flat().flatMap((a) => a.value.map((v) => v.address ?? ''));
          mails.push({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        },
        (err: Error) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    /** Mails to `address`, oldest first. */
    to: (address: string) => mails.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A port nothing listens on now: CI runs two journey suites at once, so a port derived from E2E_PORT could be
 * another suite's.
 */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** The compiled app (as `npm start` runs it) on its own port and embedded database, mailing through `smtpUrl`. */
async function startApp(port: number, smtpUrl: string) {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-e2e-alerts-'));
  // The address it listens on, not `localhost`: fetch and the browser try ::1 first, where a server of the other
  // lane may listen on the same port number (freePort only checks 127.0.0.1).
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    ADMIN_EMAIL: E2E_ADMIN.email,
    ADMIN_PASSWORD: E2E_ADMIN.password,
    SMTP_URL: smtpUrl,
    ALLOW_PRIVATE_WEBHOOKS: 'true',
    LOG_LEVEL: 'warn',
  };
  // Its own embedded database even when the journeys run on PostgreSQL.
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['dist/src/server/main.js'], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let exited = false;
  child.on('exit', () => (exited = true));
  await expect
    .poll(
      async () => {
        if (exited) throw new Error('the second app server exited');
        return fetch(`${url}/healthz`).then(
          (res) => res.ok,
          () => false,
        );
      },
      { timeout: 60_000 },
    )
    .toBe(true);
  return {
    url,
    /**
     * Stops the server, then checks its books as the journeys' teardown checks the shared server's
     * (e2e/ledger-teardown.ts, which never sees this database): every balance equals its ledger sum.
     */
    stop: async () => {
      if (!exited) {
        const gone = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await gone;
      }
      try {
        const { users, mismatches } = await pgliteLedger(dataDir);
        expect(users).toBeGreaterThan(0);
        expect(mismatches).toEqual([]);
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

type Mode = 'broken' | 'mended';

/** A workflow service on loopback whose behaviour the journey switches. */
async function startService() {
  const state = { mode: 'broken' as Mode, seen: new Map<string, number>() };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as { execution_id?: string };
      const id = body.execution_id ?? '';
      const tries = (state.seen.get(id) ?? 0) + 1;
      state.seen.set(id, tries);
      const reply = (status: number, json: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
      if (state.mode === 'mended') {
        reply(200, { status: 'completed', output_data: { message: 'Report ready' } });
      } else if (tries === 1) {
        // The upstream credential has expired: the service answers 500 ...
        reply(500, { error: 'Upstream answered 401: credential expired' });
      } else {
        // ... and on the retry it gives up and says so, as an n8n error branch would.
        reply(200, { status: 'failed', error_message: 'Upstream credential expired' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    setMode: (mode: Mode) => (state.mode = mode),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function adminContext(baseURL: string): Promise<APIRequestContext> {
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { origin: baseURL } });
  expect((await admin.post('/api/auth/signin', { data: E2E_ADMIN })).ok()).toBe(true);
  return admin;
}

test.describe.configure({ mode: 'parallel' });

for (const lng of ['en', 'es'] as const satisfies Lng[]) {
  test(`a failing workflow alerts, pauses itself, shows its 500s, and runs again once resumed (${lng})`, async ({
    browser,
  }) => {
    // A server to start, five runs, two browsers and a result: about a minute on an idle machine.
    test.setTimeout(180_000);
    const smtp = await startSmtp();
    const app = await startApp(await freePort(), smtp.url);
    const origin = app.url;
    const service = await startService();
    const admin = await adminContext(origin);
    try {
      const me = (await (await admin.get('/api/auth/me')).json()) as { id: string };
      const name = { es: `Informe frágil ${Date.now()}`, en: `Fragile report ${Date.now()}` };
      const created = await admin.post('/api/admin/workflows', {
        data: {
          userId: me.id,
          name,
          category: { es: 'Ventas', en: 'Sales' },
          webhookUrl: service.url,
          isPublic: true,
          interactionType: 'survey',
          surveyQuestions: [
            { id: 'company', question: { es: 'Empresa', en: 'Company' }, type: 'text', required: true },
          ],
        },
      });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: string };

      // A customer runs it five times; each run fails (refunded), the fifth pauses it.
      const customerContext = await browser.newContext({
        baseURL: origin,
        viewport: { width: 1280, height: 900 },
      });
      const customer = await customerContext.newPage();
      await customer.goto(`/?lng=${lng}`);
      const { email } = await signUpViaApi(customer, 'Carla Customer');
      const headers = { origin };
      // This server mails: the customer verifies their address from the link in the mail.
      await expect.poll(() => smtp.to(email).length, { timeout: 30_000 }).toBeGreaterThan(0);
      const token = /verify-email\?token=([\w-]+)/.exec(smtp.to(email)[0]!.text)?.[1];
      expect(token).toBeTruthy();
      expect((await customer.request.post('/api/auth/verify-email', { data: { token }, headers })).ok()).toBe(
        true,
      );
      for (let i = 0; i < 5; i += 1) {
        const started = await customer.request.post('/api/executions/start', {
          data: { workflowId: id, language: lng },
          headers,
        });
        expect(started.status()).toBe(201);
        const { executionId } = (await started.json()) as { executionId: string };
        const done = await customer.request.post(`/api/executions/${executionId}/complete`, {
          data: { responses: [{ question: 'Company', answer: 'Acme' }] },
          headers,
        });
        expect(((await done.json()) as { status: string }).status).toBe('failed');
      }
      const refused = await customer.request.post('/api/executions/start', {
        data: { workflowId: id, language: lng },
        headers: { ...headers, 'accept-language': lng },
      });
      expect(refused.status()).toBe(409);
      expect(((await refused.json()) as { code: string }).code).toBe('WORKFLOW_PAUSED');

      // The catalogue shows it temporarily unavailable.
      await customer.goto(`/workflows?lng=${lng}`);
      const card = customer.getByTestId('workflow-card').filter({ hasText: name[lng] });
      await expect(card.getByText(tr(lng, 'common', 'workflowHealth.paused'))).toBeVisible();
      await expect(
        card.getByRole('button', { name: tr(lng, 'catalogue', 'executeNamed', { name: name[lng] }) }),
      ).toBeDisabled();
      await screenshot(customer, `workflow-incidents-catalogue-${lng}`);
      await customer.setViewportSize({ width: 390, height: 844 });
      await expect(card.getByText(tr(lng, 'common', 'workflowHealth.paused'))).toBeVisible();
      await screenshot(customer, `workflow-incidents-catalogue-${lng}-phone`);
      await customer.setViewportSize({ width: 1280, height: 900 });

      // The admin: the alert mail in the outbox, the open incident on the dashboard.
      const adminBrowser = await browser.newContext({
        baseURL: origin,
        viewport: { width: 1280, height: 900 },
      });
      const adminPage = await adminBrowser.newPage();
      await adminPage.goto(`/signin?lng=${lng}`);
      expect(
        (await adminPage.request.post('/api/auth/signin', { data: E2E_ADMIN, headers: { origin } })).ok(),
      ).toBe(true);
      // Two mails over SMTP: the incident (its last errors, a link to the workflow) and the pause.
      const about = () =>
        smtp.to(E2E_ADMIN.email).filter((m) => m.subject.includes(name.en) || m.subject.includes(name.es));
      await expect.poll(() => about().length, { timeout: 30_000 }).toBe(2);
      for (const mail of about()) expect(mail.text).toContain(`${origin}/admin/workflows/${id}`);
      expect(about().some((m) => m.text.includes('credential expired'))).toBe(true);
      await adminPage.goto(`/admin?lng=${lng}`);
      await expect(adminPage.getByRole('link', { name: name[lng] }).first()).toBeVisible();

      // A failed run's timeline shows the 500 of its first attempt.
      await adminPage.goto(`/admin/executions?lng=${lng}`);
      await adminPage
        .getByRole('link', { name: tr(lng, 'admin', 'runDetail.open', { name: name[lng] }) })
        .first()
        .click();
      await expect(
        adminPage.getByRole('heading', { name: tr(lng, 'admin', 'runDetail.timeline') }),
      ).toBeVisible();
      await expect(adminPage.getByText(/HTTP 500/).first()).toBeVisible();
      await expect(adminPage.getByText(/credential expired/).first()).toBeVisible();
      await expectAccessible(adminPage);
      await screenshot(adminPage, `workflow-incidents-timeline-${lng}`);
      await adminPage.setViewportSize({ width: 390, height: 844 });
      await expectAccessible(adminPage);
      await screenshot(adminPage, `workflow-incidents-timeline-${lng}-phone`);
      await adminPage.setViewportSize({ width: 1280, height: 900 });

      // Mended, and resumed from the workflow's health page.
      service.setMode('mended');
      // A test run of the paused workflow succeeds, and charges no one.
      const balance = async () =>
        ((await (await adminPage.request.get('/api/auth/me')).json()) as { credits: number }).credits;
      const customerBalance = async () =>
        ((await (await customer.request.get('/api/auth/me')).json()) as { credits: number }).credits;
      const [adminBefore, customerBefore] = [await balance(), await customerBalance()];
      await adminPage.goto(`/admin/workflows/${id}/test?lng=${lng}`);
      await expect(adminPage.getByTestId('test-run-notice')).toHaveText(tr(lng, 'execute', 'test.notice'));
      await fillSurvey(adminPage, lng);
      await adminPage.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
      await expectResultScreen(adminPage);
      await expectAccessible(adminPage);
      await screenshot(adminPage, `workflow-incidents-test-run-${lng}`);
      expect(await balance()).toBe(adminBefore);
      expect(await customerBalance()).toBe(customerBefore);
      // Still paused: a test run neither resumes it nor counts as its recovery.
      const stillPaused = await customer.request.post('/api/executions/start', {
        data: { workflowId: id, language: lng },
        headers,
      });
      expect(stillPaused.status()).toBe(409);
      await adminPage.goto(`/admin/workflows/${id}/health?lng=${lng}`);
      await expect(adminPage.getByText(tr(lng, 'admin', 'health.month'))).toBeVisible();
      await adminPage.getByRole('button', { name: tr(lng, 'admin', 'health.resume') }).click();
      await expect(adminPage.getByRole('button', { name: tr(lng, 'admin', 'health.pause') })).toBeVisible();
      await expectAccessible(adminPage);
      await screenshot(adminPage, `workflow-incidents-health-${lng}`);
      await adminBrowser.close();

      // The customer runs it in the web app.
      await customer.goto(`/workflows/${id}/execute?lng=${lng}`);
      await fillSurvey(customer, lng);
      await customer.getByRole('button', { name: tr(lng, 'execute', 'survey.submit') }).click();
      await expectResultScreen(customer);
      await customerContext.close();
      // Its first completed run closes the incident: one more mail, saying it recovered.
      await expect.poll(() => about().length, { timeout: 30_000 }).toBe(3);
    } finally {
      await admin.dispose();
      await service.close();
      await app.stop();
      await smtp.close();
    }
  });
}
