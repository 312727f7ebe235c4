import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from '@playwright/test';
import { test } from './journey.js';
import { Webhook } from 'standardwebhooks';
import { expectAccessible, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * The customer's own webhooks on the account page, in both languages and at phone and desktop widths: add an
 * endpoint, see its secret once, send a test event to a receiver on loopback (the journeys' server allows
 * private addresses, as a development server does), and see it delivered in the endpoint's log.
 */

interface Received {
  body: string;
  headers: Record<string, string>;
}

async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]),
      );
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/flujo-events`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const lng of ['en', 'es'] as const) {
  for (const width of [1280, 390] as const) {
    test(`a webhook is added, its secret shown once, and a test event delivered (${lng}, ${width})`, async ({
      page,
    }) => {
      const receiver = await startReceiver();
      try {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
        await signUpViaApi(page, 'E2E Hooks', lng);
        await page.goto(`/account?lng=${lng}#webhooks`);
        const section = page.locator('#webhooks');
        await expect(
          section.getByRole('heading', { name: tr(lng, 'account', 'webhooks.heading') }),
        ).toBeVisible();
        await expect(section.getByText(tr(lng, 'account', 'webhooks.empty'))).toBeVisible();

        // Nothing chosen: refused on the page, nothing stored.
        await section.getByLabel(tr(lng, 'account', 'webhooks.url')).fill(receiver.url);
        for (const event of ['run.completed', 'run.failed']) {
          await section.getByRole('checkbox', { name: new RegExp(event.replace('.', '\\.')) }).uncheck();
        }
        await section.getByRole('button', { name: tr(lng, 'account', 'webhooks.add') }).click();
        await expect(section.getByText(tr(lng, 'account', 'webhooks.eventsRequired'))).toBeVisible();
        await section.getByRole('checkbox', { name: /run\.completed/ }).check();
        await section.getByRole('button', { name: tr(lng, 'account', 'webhooks.add') }).click();

        const shown = section.getByTestId('webhook-secret-value');
        await expect(shown).toHaveText(/^whsec_[A-Za-z0-9+/]+=*$/);
        const secret = (await shown.textContent()) ?? '';
        await expect(section.getByTestId('webhook-row')).toHaveCount(1);
        await expectAccessible(page);
        await shown.scrollIntoViewIfNeeded();
        expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `webhooks-secret-${lng}-${width}`);

        // Shown once: after a reload it is gone.
        await page.reload();
        await expect(section.getByTestId('webhook-row')).toHaveCount(1);
        await expect(page.getByText(secret)).toHaveCount(0);

        const row = section.getByTestId('webhook-row');
        await row.getByRole('button', { name: tr(lng, 'account', 'webhooks.test') }).click();
        const delivery = row.getByTestId('webhook-delivery');
        await expect(delivery).toHaveCount(1);
        await expect(delivery.getByTestId('webhook-delivery-status')).toHaveText(
          tr(lng, 'account', 'webhooks.status.delivered'),
          { timeout: 15_000 },
        );
        await expect(delivery).toContainText('webhook.test');
        await expect(delivery).toContainText('HTTP 204');
        expect(receiver.received).toHaveLength(1);
        const payload = new Webhook(secret).verify(receiver.received[0]!.body, receiver.received[0]!.headers);
        expect(payload).toMatchObject({ type: 'webhook.test' });
        await expectAccessible(page);
        await delivery.scrollIntoViewIfNeeded();
        expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(width);
        await screenshot(page, `webhooks-log-${lng}-${width}`);
      } finally {
        await receiver.close();
      }
    });
  }
}
