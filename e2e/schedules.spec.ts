import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, type Lng, originOf, screenshot, signUpViaApi, tr } from './fixtures.js';

/*
 * Schedules of saved answers, in both languages, on a phone and a desktop: the person's time zone comes from
 * the browser, the friendly choices build the schedule, the next five run times show before saving, and the
 * saved schedule lists its next run.
 */

interface Question {
  id: string;
  type: string;
  options: string[];
  min?: number;
  max?: number;
}

/** Saved answers of a survey the person may run (kept through the API, as the saved answers screen does). */
async function savedAnswers(page: Page): Promise<string> {
  const workflows = (await (await page.request.get('/api/workflows/public')).json()) as Array<{
    id: string;
    interactionType: string;
  }>;
  for (const wf of workflows.filter((w) => w.interactionType === 'survey')) {
    const detail = (await (await page.request.get(`/api/workflows/public/${wf.id}`)).json()) as {
      surveyQuestions: Question[];
    };
    if (detail.surveyQuestions.some((q) => q.type === 'file')) continue;
    const answers: Record<string, unknown> = {};
    for (const q of detail.surveyQuestions) {
      if (q.type === 'number') answers[q.id] = q.min ?? 1;
      else if (q.type === 'select') answers[q.id] = q.options[0];
      else if (q.type === 'checkbox') answers[q.id] = q.options.slice(0, 1);
      else answers[q.id] = 'Acme Bakery';
    }
    const res = await page.request.post('/api/saved-inputs', {
      data: { workflowId: wf.id, name: 'Weekly report', answers },
      headers: { origin: originOf(page) },
    });
    if (res.status() === 201) return ((await res.json()) as { id: string }).id;
  }
  throw new Error('no survey workflow took saved answers');
}

// A time zone of its own: the schedules' times are read in Madrid's.
test.use({ timezoneId: 'Europe/Madrid', ownContext: true });

for (const lng of ['en', 'es'] as const satisfies Lng[]) {
  for (const width of [1280, 390]) {
    test(`saved answers are scheduled and show their next run times (${lng}, ${width})`, async ({ page }) => {
      await page.setViewportSize({ width, height: width > 500 ? 800 : 844 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await signUpViaApi(page, 'E2E Schedules', lng);
      await savedAnswers(page);

      await page.goto(`/schedules?lng=${lng}`);
      await expect(page.getByRole('heading', { name: tr(lng, 'schedules', 'page.title') })).toBeVisible();
      // The browser's time zone became the person's.
      await expect
        .poll(
          async () =>
            ((await (await page.request.get('/api/auth/me')).json()) as { timezone: string }).timezone,
        )
        .toBe('Europe/Madrid');
      await expect(page.getByText(tr(lng, 'schedules', 'page.notScheduled'))).toBeVisible();

      await page.getByRole('button', { name: tr(lng, 'schedules', 'button.new') }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel(tr(lng, 'schedules', 'kind.weekdays')).check();
      // Weekdays start as Monday to Friday; Wednesday is taken out.
      await dialog.getByLabel(tr(lng, 'schedules', 'day.3'), { exact: true }).uncheck();
      await dialog.getByLabel(tr(lng, 'schedules', 'time'), { exact: true }).fill('08:30');
      const next = dialog.getByTestId('schedule-next-runs').locator('time');
      await expect(next).toHaveCount(5);
      for (const time of await next.all()) {
        const iso = (await time.getAttribute('datetime')) ?? '';
        const wall = new Intl.DateTimeFormat('en-GB', {
          timeZone: 'Europe/Madrid',
          weekday: 'short',
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(new Date(iso));
        expect(wall).toMatch(/^(Mon|Tue|Thu|Fri) 08:30$/);
      }
      // A too frequent advanced expression is refused in the reader's language before anything is saved.
      await dialog.getByLabel(tr(lng, 'schedules', 'kind.cron')).check();
      await dialog.getByLabel(tr(lng, 'schedules', 'cron')).fill('*/5 * * * *');
      await expect(dialog.getByRole('alert')).toContainText(
        lng === 'es' ? 'cada 15 minutos' : 'every 15 minutes',
      );
      await dialog.getByLabel(tr(lng, 'schedules', 'kind.weekdays')).check();
      await expect(next).toHaveCount(5);
      await expectAccessible(page);
      await screenshot(page, `schedule-dialog-${lng}-${width}`);
      await dialog.getByRole('button', { name: tr(lng, 'schedules', 'save') }).click();
      await expect(dialog).toBeHidden();

      const item = page.getByRole('listitem').filter({ hasText: 'Weekly report' });
      await expect(item).toContainText(tr(lng, 'schedules', 'page.nextRun', { time: '' }).trim());
      expect(await page.locator('html').evaluate((el) => el.scrollWidth)).toBeLessThanOrEqual(width);
      await expectAccessible(page);
      await screenshot(page, `schedules-page-${lng}-${width}`);

      // Paused from the same dialog.
      await item.getByRole('button', { name: tr(lng, 'schedules', 'button.edit') }).click();
      await page
        .getByRole('dialog')
        .getByRole('button', { name: tr(lng, 'schedules', 'pause') })
        .click();
      await expect(page.getByRole('dialog').getByText(tr(lng, 'schedules', 'status.person'))).toBeVisible();
    });
  }
}
