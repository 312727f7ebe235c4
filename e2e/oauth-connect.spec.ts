import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, type Browser, type Page } from '@playwright/test';
import { test } from './journey.js';
import {
  expectAccessible,
  type Lng,
  originOf,
  screenshot,
  signInAsAdmin,
  signUpViaApi,
  tr,
} from './fixtures.js';

/*
 * An app (Claude's connector, say) connects by OAuth: its authorisation request sends a signed-out person to
 * sign in, then to the consent page, where they set a monthly limit and approve; the app gets its token. Then
 * "Connected apps" in the account: the app listed, its limit edited, disconnected, and its token refused.
 */

/**
 * The app's own page at its redirect URI, a server on loopback as a desktop app's would be: the browser lands
 * there with the code, and the journey reads the address it was sent to.
 */
async function appCallback(): Promise<{ uri: string; landed: () => URL | null; close: () => Promise<void> }> {
  let landed: URL | null = null;
  const server: Server = createServer((req, res) => {
    landed = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<title>App</title><p>Connected</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    uri: `http://127.0.0.1:${port}/callback`,
    landed: () => landed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function registerApp(page: Page, name: string, redirect: string): Promise<string> {
  const res = await page.request.post('/oauth/register', {
    data: { client_name: name, client_uri: 'https://claude.example', redirect_uris: [redirect] },
  });
  expect(res.status()).toBe(201);
  return ((await res.json()) as { client_id: string }).client_id;
}

/** A second browser window, signed in as the journeys' administrator. */
async function signedInAdmin(browser: Browser, lng: Lng) {
  const adminContext = await browser.newContext();
  const admin = await adminContext.newPage();
  await signInAsAdmin(admin, lng);
  return { adminContext, admin };
}

const mcpPing = (page: Page, token: string) =>
  page.request.post('/mcp', {
    headers: { authorization: `Bearer ${token}`, accept: 'application/json, text/event-stream' },
    data: { jsonrpc: '2.0', id: 1, method: 'ping' },
  });

for (const lng of ['es', 'en'] as const satisfies Lng[]) {
  test(`an app connects by OAuth, then is limited and disconnected (${lng})`, async ({
    page,
    context,
    browser,
  }) => {
    const { email, password } = await signUpViaApi(page, 'E2E OAuth', lng);
    const origin = originOf(page);
    // Signed out, as a person arriving from the app usually is; their browser still knows their language.
    await context.clearCookies({ name: 'flujo_session' });

    const name = `Claude ${lng}`;
    const app = await appCallback();
    const redirect = app.uri;
    const clientId = await registerApp(page, name, redirect);
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL('/oauth/authorize', origin);
    authorize.search = new URLSearchParams({
      client_id: clientId,
      redirect_uri: redirect,
      response_type: 'code',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      state: 'journey',
      resource: `${origin}/mcp`,
    }).toString();
    await page.goto(authorize.href);
    await expect(page).toHaveURL(/\/signin$/);
    await page.getByLabel(tr(lng, 'auth', 'fields.email')).fill(email);
    await page.getByLabel(tr(lng, 'auth', 'fields.password')).fill(password);
    await page.getByRole('button', { name: tr(lng, 'auth', 'signin.submit') }).click();

    // Back at the consent page.
    await expect(page).toHaveURL(/\/connect\/[\w-]+$/);
    await expect(page.getByRole('heading', { name: tr(lng, 'connect', 'title', { name }) })).toBeVisible();
    await expect(page.getByRole('link', { name: 'https://claude.example' })).toBeVisible();
    await expect(page.getByText(tr(lng, 'connect', 'abilities.run'))).toBeVisible();
    await expect(page.getByText(tr(lng, 'connect', 'returnsTo', { uri: redirect }))).toBeVisible();
    await page.getByLabel(tr(lng, 'connect', 'limit')).fill('0');
    await page.getByRole('button', { name: tr(lng, 'connect', 'approve') }).click();
    await expect(page.getByText(tr(lng, 'connect', 'limitInvalid'))).toBeVisible();
    await page.getByLabel(tr(lng, 'connect', 'limit')).fill('3');
    await expectAccessible(page);
    await screenshot(page, `oauth-consent-${lng}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(page);
    await screenshot(page, `oauth-consent-${lng}-390`);
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByRole('button', { name: tr(lng, 'connect', 'approve') }).click();

    await expect.poll(() => app.landed()?.searchParams.get('code') ?? null).not.toBeNull();
    await expect(page.getByText('Connected')).toBeVisible();
    const landed = app.landed()!;
    await app.close();
    const tokens = await page.request.post('/oauth/token', {
      form: {
        grant_type: 'authorization_code',
        code: landed.searchParams.get('code')!,
        redirect_uri: redirect,
        code_verifier: verifier,
        client_id: clientId,
      },
    });
    expect(tokens.status()).toBe(200);
    const { access_token: token } = (await tokens.json()) as { access_token: string };
    expect((await mcpPing(page, token)).status()).toBe(200);

    await page.goto(`/account?lng=${lng}#connected-apps`);
    const section = page.locator('#connected-apps');
    const row = section.getByTestId('connected-app-row');
    await expect(row).toHaveCount(1);
    await expect(row).toContainText(name);
    await expect(row).toContainText(tr(lng, 'account', 'connectedApps.spentOfLimit', { spent: 0, limit: 3 }));
    await row
      .getByRole('button', { name: tr(lng, 'account', 'connectedApps.editLimitNamed', { name }) })
      .click();
    await row.getByLabel(tr(lng, 'account', 'connectedApps.limit')).fill('5');
    await row.getByRole('button', { name: tr(lng, 'account', 'connectedApps.save') }).click();
    await expect(row).toContainText(tr(lng, 'account', 'connectedApps.spentOfLimit', { spent: 0, limit: 5 }));
    await expectAccessible(page);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, `connected-apps-${lng}-1280`);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, `connected-apps-${lng}-390`);
    await page.setViewportSize({ width: 1280, height: 720 });

    // An admin sees the app among the person's, in the users list.
    const { adminContext, admin } = await signedInAdmin(browser, lng);
    await admin.goto(`/admin/users?lng=${lng}`);
    await admin.getByRole('searchbox', { name: tr(lng, 'admin', 'users.search') }).fill(email);
    await admin.getByRole('button', { name: tr(lng, 'admin', 'users.appsNamed', { email }) }).click();
    const apps = admin.getByRole('dialog');
    await expect(apps).toContainText(name);
    await expect(
      apps.getByRole('button', { name: tr(lng, 'admin', 'users.appsRevokeNamed', { name }) }),
    ).toBeVisible();
    await expectAccessible(admin);
    await screenshot(admin, `admin-connected-apps-${lng}-1280`, { fullPage: false });
    await adminContext.close();

    await row
      .getByRole('button', { name: tr(lng, 'account', 'connectedApps.disconnectNamed', { name }) })
      .click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(tr(lng, 'account', 'connectedApps.confirmBody'));
    await dialog.getByRole('button', { name: tr(lng, 'account', 'connectedApps.confirm') }).click();
    await expect(section.getByText(tr(lng, 'account', 'connectedApps.empty'))).toBeVisible();
    expect((await mcpPing(page, token)).status()).toBe(401);
  });
}

for (const lng of ['es', 'en'] as const satisfies Lng[]) {
  test(`n8n asks to manage Flujo: only an administrator can approve it (${lng})`, async ({
    page,
    browser,
  }) => {
    await signUpViaApi(page, 'E2E', lng);
    const origin = originOf(page);
    const app = await appCallback();
    // As n8n's Flujo credential asks: the discovery document's scopes, and the management API as the resource.
    const clientId = await registerApp(page, 'n8n', app.uri);
    const consentFor = async (target: Page) => {
      const authorize = new URL('/oauth/authorize', origin);
      authorize.search = new URLSearchParams({
        client_id: clientId,
        redirect_uri: app.uri,
        response_type: 'code',
        scope: 'openid offline_access',
        code_challenge: createHash('sha256')
          .update(randomBytes(32).toString('base64url'))
          .digest('base64url'),
        code_challenge_method: 'S256',
        state: 'journey',
        resource: `${origin}/api/v1/admin`,
      }).toString();
      await target.goto(authorize.href);
      await expect(target).toHaveURL(/\/connect\/[\w-]+$/);
      await expect(target.getByText(tr(lng, 'connect', 'abilities.admin'))).toBeVisible();
    };

    // Someone who is not an administrator is told so, and cannot approve.
    await consentFor(page);
    await expect(page.getByRole('alert')).toHaveText(tr(lng, 'connect', 'adminOnly'));
    await expect(page.getByRole('button', { name: tr(lng, 'connect', 'approve') })).toBeDisabled();
    await expectAccessible(page);
    await screenshot(page, `oauth-consent-admin-refused-${lng}-1280`);

    // An administrator approves: the app gets its code.
    const { adminContext, admin } = await signedInAdmin(browser, lng);
    await consentFor(admin);
    await expect(admin.getByRole('alert')).toHaveCount(0);
    await expectAccessible(admin);
    await screenshot(admin, `oauth-consent-admin-${lng}-1280`);
    await admin.getByRole('button', { name: tr(lng, 'connect', 'approve') }).click();
    await expect.poll(() => app.landed()?.searchParams.get('code') ?? null).not.toBeNull();
    await adminContext.close();
    await app.close();
  });
}
