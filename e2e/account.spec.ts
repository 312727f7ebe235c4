import { readFileSync } from 'node:fs';
import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { test } from './journey.js';
import { E2E_ADMIN } from '../playwright.config.js';
import {
  chooseLanguage,
  expectAccessible,
  type Lng,
  newEmail,
  originOf,
  SCREENS,
  screenshot,
  setConfig,
  SETTINGS,
  shot,
  tr,
} from './fixtures.js';

/*
 * Password reset, e-mail verification and account settings, in both languages. The e2e server has no SMTP
 * server, so every mail is held in the outbox and read by the admin on Admin > E-mails, links included.
 */

const LANGUAGES: Lng[] = ['en', 'es'];
const PASSWORD = 'e2e-password-123';

async function api(page: Page, method: 'post' | 'get', path: string, data?: unknown) {
  const headers = { origin: originOf(page) };
  return method === 'get' ? page.request.get(path) : page.request.post(path, { data: data ?? {}, headers });
}

/** A new account through the API, mails in `lng`; the page is signed in as it. */
async function signUp(page: Page, lng: Lng, fullName = 'E2E Account'): Promise<string> {
  await chooseLanguage(page, lng);
  const email = newEmail('account');
  const res = await api(page, 'post', '/api/auth/signup', {
    email,
    password: PASSWORD,
    fullName,
    language: lng,
  });
  expect(res.status()).toBe(201);
  return email;
}

async function signedIn(page: Page): Promise<boolean> {
  return (await page.request.get('/api/auth/me')).ok();
}

/** A second browser (another device) signed in as the given account. */
async function otherDevice(browser: Browser, baseURL: string | undefined, email: string, password: string) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await page.goto('/');
  const res = await api(page, 'post', '/api/auth/signin', { email, password });
  expect(res.ok()).toBe(true);
  return { context, page };
}

async function adminBrowser(browser: Browser, baseURL: string | undefined): Promise<BrowserContext> {
  const { context } = await otherDevice(browser, baseURL, E2E_ADMIN.email, E2E_ADMIN.password);
  return context;
}

/** A dialog is fixed to the viewport: a full-page shot would show it away from where it sits. */
async function viewportShot(page: Page, name: string): Promise<void> {
  await screenshot(page, name, { fullPage: false });
}

/**
 * As the admin, opens Admin > E-mails, finds the newest mail of `kind` to `to`, and returns the link it
 * carries to `path` (the server's PUBLIC_URL is the e2e base URL).
 */
async function readMailLink(admin: Page, lng: Lng, to: string, kind: string, path: string): Promise<string> {
  await admin.goto(`/admin/emails?lng=${lng}`);
  await expect(
    admin.getByRole('heading', { level: 1, name: tr(lng, 'admin', 'emails.title') }),
  ).toBeVisible();
  await admin.getByRole('searchbox', { name: tr(lng, 'admin', 'emails.search') }).fill(to);
  const kindLabel = tr(lng, 'admin', `emails.kinds.${kind}`);
  const rows = admin.getByRole('row').filter({ hasText: to }).filter({ hasText: kindLabel });
  // The mail is written in the same transaction as the request: it is there at once (no other row matches).
  await expect(admin.getByRole('row').filter({ hasText: to }).first()).toBeVisible();
  await rows.first().getByRole('button').first().click();
  const dialog = admin.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText(to, { exact: true }).first()).toBeVisible();
  await expect(dialog.getByTestId('email-held')).toHaveText(tr(lng, 'admin', 'emails.heldNote'));
  const link = dialog.getByRole('link', { name: new RegExp(`${path}\\?token=`) }).first();
  await expect(link).toBeVisible();
  await expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  await expect(link).toHaveAttribute('target', '_blank');
  await expectAccessible(admin);
  const href = (await link.getAttribute('href')) ?? '';
  expect(new URL(href).pathname).toBe(path);
  await dialog.getByRole('button', { name: tr(lng, 'admin', 'common.close') }).click();
  return href;
}

for (const lng of LANGUAGES) {
  test.describe(`account journeys (${lng})`, () => {
    test.describe.configure({ timeout: 120_000 });

    test(`forgot password: the link from the mail sets a new password and signs in (${lng})`, async ({
      page,
      browser,
      baseURL,
    }) => {
      const email = await signUp(page, lng, 'Forgetful Person');
      await api(page, 'post', '/api/auth/signout');

      await page.goto(`/signin?lng=${lng}`);
      await page.getByRole('link', { name: tr(lng, 'auth', 'signin.forgot') }).click();
      await expect(page).toHaveURL(/\/forgot-password$/);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lng, 'auth', 'forgot.title'));
      await page.getByLabel(tr(lng, 'auth', 'fields.email'), { exact: true }).fill(email);
      await page.getByRole('button', { name: tr(lng, 'auth', 'forgot.submit') }).click();
      const sent = page.getByTestId('forgot-sent');
      await expect(sent).toContainText(tr(lng, 'auth', 'forgot.sentBody', { email }));
      // The confirmation takes the focus, so a screen reader reads it.
      await expect(sent.getByRole('heading', { name: tr(lng, 'auth', 'forgot.sentTitle') })).toBeFocused();

      const adminContext = await adminBrowser(browser, baseURL);
      const admin = await adminContext.newPage();
      const link = await readMailLink(admin, lng, email, 'password_reset', '/reset-password');

      await page.goto(link);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lng, 'auth', 'reset.title'));
      const newPassword = `new-${lng}-password-456`;
      await page.getByLabel(tr(lng, 'auth', 'reset.newPassword'), { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: tr(lng, 'auth', 'reset.submit') }).click();
      await expect(page).toHaveURL(/\/workflows$/);
      await expect(page.getByText(tr(lng, 'auth', 'reset.done'))).toBeVisible();
      expect(await signedIn(page)).toBe(true);

      // The link works once.
      await page.goto(link);
      await page
        .getByLabel(tr(lng, 'auth', 'reset.newPassword'), { exact: true })
        .fill('another-password-789');
      await page.getByRole('button', { name: tr(lng, 'auth', 'reset.submit') }).click();
      await expect(page.getByRole('alert')).toHaveText(tr(lng, 'common', 'errors.invalidToken'));
      await expect(page.getByRole('link', { name: tr(lng, 'auth', 'reset.requestNew') })).toBeVisible();

      // Signed out, the old password no longer works and the new one does.
      await api(page, 'post', '/api/auth/signout');
      await page.goto(`/signin?lng=${lng}`);
      await page.getByLabel(tr(lng, 'auth', 'fields.email'), { exact: true }).fill(email);
      await page.getByLabel(tr(lng, 'auth', 'fields.password'), { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: tr(lng, 'auth', 'signin.submit') }).click();
      await expect(page.getByRole('alert')).toHaveText(tr(lng, 'auth', 'signin.error'));
      await page.getByLabel(tr(lng, 'auth', 'fields.password'), { exact: true }).fill(newPassword);
      await page.getByRole('button', { name: tr(lng, 'auth', 'signin.submit') }).click();
      await expect(page).toHaveURL(/\/workflows$/);
      await adminContext.close();
    });

    test(
      `verification: the banner until the mailed link is opened (${lng})`,
      SETTINGS,
      async ({ page, browser, baseURL }) => {
        // Through the form this time: the sign-up sends the UI language, and the mail is written in it.
        const email = newEmail('verify');
        await page.goto(`/signup?lng=${lng}`);
        await page.getByLabel(tr(lng, 'auth', 'fields.fullName'), { exact: true }).fill('Vera Verify');
        await page.getByLabel(tr(lng, 'auth', 'fields.email'), { exact: true }).fill(email);
        await page.getByLabel(tr(lng, 'auth', 'fields.password'), { exact: true }).fill(PASSWORD);
        await page.getByRole('button', { name: tr(lng, 'auth', 'signup.submit') }).click();
        await expect(page).toHaveURL(/\/workflows$/);
        const me = (await (await page.request.get('/api/auth/me')).json()) as { language: string };
        expect(me.language).toBe(lng);

        const banner = page.getByTestId('verify-email-banner').first();
        await expect(banner).toContainText(tr(lng, 'common', 'verify.bannerBody', { email }));
        await banner.getByRole('button', { name: tr(lng, 'common', 'verify.resend') }).click();
        await expect(page.getByText(tr(lng, 'common', 'verify.sentTitle'))).toBeVisible();
        await expectAccessible(page);
        await shot(page, `verify-banner-${lng}-1280`);

        const adminContext = await adminBrowser(browser, baseURL);
        const admin = await adminContext.newPage();
        await admin.goto('/');

        // While verification is required, starting a run says what to do, and charges nothing.
        const workflows = (await (await page.request.get('/api/workflows/public')).json()) as Array<{
          id: string;
        }>;
        const restore = await setConfig(
          { request: admin.request, origin: originOf(admin) },
          'require_email_verification',
          true,
        );
        try {
          await page.goto(`/workflows/${workflows[0]!.id}/execute?lng=${lng}`);
          await expect(page.getByTestId('start-unverified')).toHaveText(
            tr(lng, 'execute', 'unverified.body', { email }),
          );
          await expect(page.getByRole('heading', { level: 1 })).toHaveText(
            tr(lng, 'execute', 'unverified.title'),
          );
          await expect(
            page.getByRole('main').getByRole('button', { name: tr(lng, 'common', 'verify.resend') }),
          ).toBeVisible();
          await expectAccessible(page);
          await shot(page, `execute-unverified-${lng}-1280`);
          await expect(page.getByTestId('credits-badge').filter({ visible: true })).toHaveText('5');
        } finally {
          await restore();
        }

        const link = await readMailLink(admin, lng, email, 'email_verification', '/verify-email');

        await page.goto(link);
        await expect(page.getByTestId('verify-done')).toHaveText(
          tr(lng, 'auth', 'verify.verified', { email }),
        );
        await expectAccessible(page);
        await shot(page, `verify-email-done-${lng}-1280`);
        await page.getByRole('link', { name: tr(lng, 'auth', 'verify.toWorkflows') }).click();
        await expect(page).toHaveURL(/\/workflows$/);
        await expect(page.getByTestId('verify-email-banner')).toHaveCount(0);
        const after = (await (await page.request.get('/api/auth/me')).json()) as { emailVerified: boolean };
        expect(after.emailVerified).toBe(true);

        // Used once, the link now says so, and that the address is already verified.
        await page.goto(link);
        await expect(page.getByRole('alert')).toHaveText(tr(lng, 'common', 'errors.invalidToken'));
        await expect(page.getByText(tr(lng, 'auth', 'verify.stillVerified', { email }))).toBeVisible();
        await adminContext.close();
      },
    );

    test(`account settings: profile, password, devices, e-mail, data, deletion (${lng})`, async ({
      page,
      browser,
      baseURL,
    }) => {
      const other: Lng = lng === 'en' ? 'es' : 'en';
      const email = await signUp(page, lng, 'Sam Settings');
      await page.goto(`/account?lng=${lng}`);
      const heading = page.getByRole('heading', { level: 2, name: tr(lng, 'account', 'settings.heading') });
      await expect(heading).toBeVisible();

      // Name and language: saving the other language switches the app to it.
      const profile = page.getByTestId('settings-profile');
      await profile
        .getByLabel(tr(lng, 'account', 'settings.profile.name'), { exact: true })
        .fill(`Sam ${lng}`);
      await profile
        .getByLabel(tr(lng, 'account', 'settings.profile.language'), { exact: true })
        .selectOption(other);
      await profile.getByRole('button', { name: tr(lng, 'account', 'settings.profile.submit') }).click();
      await expect(page.getByText(tr(other, 'account', 'settings.profile.saved'))).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('lang', other);
      await expect(
        page.getByRole('heading', { level: 2, name: tr(other, 'account', 'settings.heading') }),
      ).toBeVisible();
      await expect(page.getByTestId('account-name')).toHaveText(`Sam ${lng}`);
      let me = (await (await page.request.get('/api/auth/me')).json()) as {
        language: string;
        fullName: string;
      };
      expect(me).toMatchObject({ language: other, fullName: `Sam ${lng}` });
      // ...and back.
      await profile
        .getByLabel(tr(other, 'account', 'settings.profile.language'), { exact: true })
        .selectOption(lng);
      await profile.getByRole('button', { name: tr(other, 'account', 'settings.profile.submit') }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', lng);
      me = (await (await page.request.get('/api/auth/me')).json()) as typeof me;
      expect(me.language).toBe(lng);

      // Password: a wrong current one is named at its field; the right one ends the other devices' sessions
      // and, unless the box is ticked (it is not by default), revokes the API keys.
      const laptop = await otherDevice(browser, baseURL, email, PASSWORD);
      expect((await api(page, 'post', '/api/account/api-keys', { name: 'laptop script' })).status()).toBe(
        201,
      );
      const pw = page.getByTestId('settings-password');
      const keepKeys = pw.getByLabel(tr(lng, 'account', 'settings.password.keepApiAccess'), { exact: true });
      await expect(keepKeys).not.toBeChecked();
      const viewport = page.viewportSize();
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await screenshot(pw, `settings-password-${lng}-${width}`);
      }
      if (viewport) await page.setViewportSize(viewport);
      const current = pw.getByLabel(tr(lng, 'account', 'settings.password.current'), { exact: true });
      await current.fill('not-my-password');
      await pw
        .getByLabel(tr(lng, 'account', 'settings.password.new'), { exact: true })
        .fill('changed-password-1');
      await pw.getByRole('button', { name: tr(lng, 'account', 'settings.password.submit') }).click();
      await expect(pw.getByRole('alert')).toHaveText(tr(lng, 'account', 'settings.password.wrongCurrent'));
      await expect(current).toHaveAttribute('aria-invalid', 'true');
      await current.fill(PASSWORD);
      await pw.getByRole('button', { name: tr(lng, 'account', 'settings.password.submit') }).click();
      await expect(page.getByText(tr(lng, 'account', 'settings.password.done'))).toBeVisible();
      await expect(page.getByText(tr(lng, 'account', 'settings.password.doneBodyKeysRevoked'))).toBeVisible();
      expect(await (await api(page, 'get', '/api/account/api-keys')).json()).toEqual({ keys: [] });
      await expect(current).toHaveValue('');
      expect(await signedIn(page)).toBe(true);
      expect(await signedIn(laptop.page)).toBe(false);
      await laptop.context.close();

      // Sign out of all other devices.
      const phone = await otherDevice(browser, baseURL, email, 'changed-password-1');
      await page.getByRole('button', { name: tr(lng, 'account', 'settings.sessions.submit') }).click();
      await expect(
        page.getByText(tr(lng, 'account', 'settings.sessions.doneBody_one', { count: 1 })),
      ).toBeVisible();
      expect(await signedIn(phone.page)).toBe(false);
      expect(await signedIn(page)).toBe(true);
      await phone.context.close();

      // E-mail change: the address taken by another account is refused at its field; a free one waits
      // for the link mailed to it, and changes when it is opened.
      const emailCard = page.getByTestId('settings-email');
      const newAddress = emailCard.getByLabel(tr(lng, 'account', 'settings.email.new'), { exact: true });
      const emailPassword = emailCard.getByLabel(tr(lng, 'account', 'settings.passwordLabel'), {
        exact: true,
      });
      await newAddress.fill(E2E_ADMIN.email);
      await emailPassword.fill('changed-password-1');
      await emailCard.getByRole('button', { name: tr(lng, 'account', 'settings.email.submit') }).click();
      await expect(emailCard.getByRole('alert')).toHaveText(tr(lng, 'account', 'settings.email.taken'));
      const moved = newEmail('moved');
      await newAddress.fill(moved);
      await emailPassword.fill('changed-password-1');
      await emailCard.getByRole('button', { name: tr(lng, 'account', 'settings.email.submit') }).click();
      await expect(emailCard.getByTestId('email-change-pending')).toHaveText(
        tr(lng, 'account', 'settings.email.pending', { email: moved, current: email }),
      );
      await expectAccessible(page);
      await shot(page, `account-email-pending-${lng}-1280`);
      const adminContext = await adminBrowser(browser, baseURL);
      const link = await readMailLink(
        await adminContext.newPage(),
        lng,
        moved,
        'email_change_verification',
        '/verify-email',
      );
      await adminContext.close();
      await page.goto(link);
      await expect(page.getByTestId('verify-done')).toHaveText(
        tr(lng, 'auth', 'verify.changed', { email: moved }),
      );
      await page.goto(`/account?lng=${lng}`);
      await expect(page.getByTestId('settings-email')).toContainText(moved);

      // Download my data: a JSON file with the profile.
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: tr(lng, 'account', 'settings.export.submit') }).click(),
      ]);
      const exported = JSON.parse(readFileSync((await download.path()) ?? '', 'utf8')) as {
        profile: { email: string; fullName: string };
      };
      expect(exported.profile).toMatchObject({ email: moved, fullName: `Sam ${lng}` });

      // Delete: the dialog explains, a wrong password is refused, the right one ends everything.
      await page.getByRole('button', { name: tr(lng, 'account', 'settings.delete.open') }).click();
      const dialog = page.getByRole('dialog', { name: tr(lng, 'account', 'settings.delete.confirmTitle') });
      await expect(dialog.getByText(tr(lng, 'account', 'settings.delete.kept'))).toBeVisible();
      await expectAccessible(page);
      const deletePassword = dialog.getByLabel(tr(lng, 'account', 'settings.delete.password'), {
        exact: true,
      });
      await deletePassword.fill('wrong-password');
      await dialog.getByRole('button', { name: tr(lng, 'account', 'settings.delete.confirm') }).click();
      await expect(dialog.getByRole('alert')).toHaveText(tr(lng, 'account', 'settings.wrongPassword'));
      await deletePassword.fill('changed-password-1');
      await dialog.getByRole('button', { name: tr(lng, 'account', 'settings.delete.confirm') }).click();
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByText(tr(lng, 'account', 'settings.delete.done'))).toBeVisible();
      expect(await signedIn(page)).toBe(false);

      await page.goto(`/signin?lng=${lng}`);
      await page.getByLabel(tr(lng, 'auth', 'fields.email'), { exact: true }).fill(moved);
      await page.getByLabel(tr(lng, 'auth', 'fields.password'), { exact: true }).fill('changed-password-1');
      await page.getByRole('button', { name: tr(lng, 'auth', 'signin.submit') }).click();
      await expect(page.getByRole('alert')).toHaveText(tr(lng, 'auth', 'signin.error'));
    });
  });

  for (const width of [1280, 390]) {
    test(
      `the new screens are accessible and look finished (${lng}, ${width}px)`,
      SCREENS,
      async ({ page, browser, baseURL }) => {
        await page.setViewportSize({ width, height: 900 });
        const shoot = async (name: string) => {
          await expectAccessible(page);
          await shot(page, `${name}-${lng}-${width}`);
        };

        await page.goto(`/signin?lng=${lng}`);
        await expect(page.getByRole('link', { name: tr(lng, 'auth', 'signin.forgot') })).toBeVisible();
        await shoot('signin-forgot');

        await page.goto(`/forgot-password?lng=${lng}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lng, 'auth', 'forgot.title'));
        await shoot('forgot-password');
        await page.getByLabel(tr(lng, 'auth', 'fields.email'), { exact: true }).fill(newEmail('nobody'));
        await page.getByRole('button', { name: tr(lng, 'auth', 'forgot.submit') }).click();
        await expect(page.getByTestId('forgot-sent')).toBeVisible();
        await shoot('forgot-password-sent');

        await page.goto(`/reset-password?lng=${lng}&token=${'x'.repeat(43)}`);
        await expect(page.getByRole('heading', { level: 1 })).toHaveText(tr(lng, 'auth', 'reset.title'));
        await shoot('reset-password');
        await page
          .getByLabel(tr(lng, 'auth', 'reset.newPassword'), { exact: true })
          .fill('a-fine-new-password');
        await page.getByRole('button', { name: tr(lng, 'auth', 'reset.submit') }).click();
        await expect(page.getByRole('alert')).toHaveText(tr(lng, 'common', 'errors.invalidToken'));
        await shoot('reset-password-invalid');

        await page.goto(`/verify-email?lng=${lng}&token=${'y'.repeat(43)}`);
        await expect(page.getByRole('alert')).toHaveText(tr(lng, 'common', 'errors.invalidToken'));
        await shoot('verify-email-invalid');

        // Signed in, unverified: the banner, the settings, and a link that cannot be used any more.
        const email = await signUp(page, lng, 'Screen Shot');
        await page.goto(`/verify-email?lng=${lng}&token=${'z'.repeat(43)}`);
        await expect(page.getByRole('button', { name: tr(lng, 'common', 'verify.resend') })).toBeVisible();
        await shoot('verify-email-invalid-signed-in');
        await page.goto(`/account?lng=${lng}`);
        await expect(page.getByTestId('verify-email-banner')).toBeVisible();
        await expect(page.getByTestId('settings-delete')).toBeVisible();
        await shoot('account-settings');
        await page.getByRole('button', { name: tr(lng, 'account', 'settings.delete.open') }).click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expectAccessible(page);
        await viewportShot(page, `account-delete-${lng}-${width}`);
        await api(page, 'post', '/api/auth/signout');

        // The admin's E-mails screen and one mail.
        const adminContext = await adminBrowser(browser, baseURL);
        const admin = await adminContext.newPage();
        await admin.setViewportSize({ width, height: 900 });
        await admin.goto(`/admin/emails?lng=${lng}`);
        await expect(
          admin.getByRole('heading', { level: 1, name: tr(lng, 'admin', 'emails.title') }),
        ).toBeVisible();
        const emailsLabel = tr(lng, 'admin', 'emails.title');
        // A table from 768 px up, a card per mail below.
        const mails =
          width >= 768
            ? admin.getByRole('table', { name: emailsLabel }).getByRole('row')
            : admin.getByRole('list', { name: emailsLabel }).getByRole('listitem');
        await admin.getByRole('searchbox', { name: tr(lng, 'admin', 'emails.search') }).fill(email);
        const firstSubject = mails.filter({ hasText: email }).first();
        await expect(firstSubject).toBeVisible();
        await expectAccessible(admin);
        await shot(admin, `admin-emails-${lng}-${width}`);
        await firstSubject.getByRole('button').first().click();
        await expect(admin.getByRole('dialog')).toBeVisible();
        await expect(admin.getByRole('dialog').getByRole('link').first()).toBeVisible();
        await expectAccessible(admin);
        await viewportShot(admin, `admin-email-detail-${lng}-${width}`);
        await admin.keyboard.press('Escape');

        // The users list: "send password reset link" asks first, then confirms with a toast.
        await admin.goto(`/admin/users?lng=${lng}`);
        await admin.getByRole('searchbox', { name: tr(lng, 'admin', 'users.search') }).fill(email);
        await admin.getByRole('button', { name: tr(lng, 'admin', 'users.resetNamed', { email }) }).click();
        const confirm = admin.getByRole('dialog');
        await expect(confirm).toContainText(tr(lng, 'admin', 'users.resetWarning'));
        await expectAccessible(admin);
        await viewportShot(admin, `admin-user-reset-${lng}-${width}`);
        await confirm.getByRole('button', { name: tr(lng, 'admin', 'users.resetConfirm') }).click();
        await expect(admin.getByText(tr(lng, 'admin', 'users.resetSent'))).toBeVisible();
        // The link went out as a mail to that user (held here, with no SMTP server).
        await admin.goto(`/admin/emails?lng=${lng}`);
        await admin.getByRole('searchbox', { name: tr(lng, 'admin', 'emails.search') }).fill(email);
        await expect(admin.getByText(tr(lng, 'admin', 'emails.kinds.password_reset')).first()).toBeVisible();
        await adminContext.close();
      },
    );
  }
}
