import { expect, type Page } from '@playwright/test';
import { test } from './journey.js';
import { expectAccessible, expectResultScreen, screenshot, signUpViaApi } from './fixtures.js';

// The seeded chat demo; no LLM is configured here, so the scripted demo assistant answers, word by word.
const CHAT_DEMO_ID = 'd3e0a000-0000-4000-8000-000000000001';

const TEXT = {
  en: {
    stop: 'Stop',
    send: 'Send',
    demo: 'Demo assistant',
    stopped: 'You stopped this reply',
    done: 'Workflow completed',
  },
  es: {
    stop: 'Detener',
    send: 'Enviar',
    demo: 'Asistente de demostración',
    stopped: 'Has detenido esta respuesta',
    done: 'Workflow completado',
  },
} as const;

/**
 * A long answer, so that the summary that repeats it takes a few seconds to write: 90 words at 50 ms a word
 * (playwright.config.ts) stay on screen about as long as 45 did at 100 ms, for Stop to be clicked meanwhile.
 */
const LONG_ANSWER = Array.from({ length: 90 }, (_, i) => `detail${i + 1}`).join(' ');

/** Records, for the whole visit, whether the completion marker was ever on screen, even for a moment. */
async function watchForMarker(page: Page): Promise<() => Promise<boolean>> {
  // A script of its own: these specs are typed without the DOM library.
  await page.evaluate(`
    window.markerSeen = false;
    new MutationObserver(() => {
      if (/CONVERSATION_COMPLETE|CONVERSACI[OÓ]N_COMPLETADA/i.test(document.body.innerText)) window.markerSeen = true;
    }).observe(document.body, { subtree: true, childList: true, characterData: true });
  `);
  return async () => (await page.evaluate('window.markerSeen')) === true;
}

for (const lng of ['en', 'es'] as const) {
  for (const width of [390, 1280]) {
    test(`the chat shows the reply as it is written, can stop it, and locks the composer meanwhile (${lng}, ${width} px)`, async ({
      page,
    }) => {
      test.setTimeout(120_000);
      const t = TEXT[lng];
      await page.setViewportSize({ width, height: 860 });
      await signUpViaApi(page, lng === 'es' ? 'Lucía Prueba' : 'Liam Tester', lng);
      await page.goto(`/workflows/${CHAT_DEMO_ID}/execute?lng=${lng}`);
      const input = page.locator('#chat-input');
      const writing = page.locator('[data-streaming=true]');
      const announcement = page.getByTestId('chat-announcement');
      await expect(input).toBeEnabled();
      const markerSeen = await watchForMarker(page);
      await expectAccessible(page);

      // A reply is written to the end, then announced once to screen readers.
      // A short reply locks the composer for well under a second, too briefly to be seen reliably on a busy
      // machine: here the reply is awaited, and the lock is checked below on a long one.
      const replies = page.locator('[role=log] [data-role=assistant]');
      await input.fill(lng === 'es' ? 'Una boda junto al mar' : 'A wedding by the sea');
      await input.press('Enter');
      await expect(replies).toHaveCount(2, { timeout: 20_000 });
      await expect(writing).toHaveCount(0, { timeout: 20_000 });
      await expect(input).toBeEnabled();
      await expect(input).toBeFocused();
      // The demo assistant's replies carry its label beside the text, the welcome (the workflow's) does not.
      await expect(announcement).toContainText(lng === 'es' ? 'Entendido.' : 'Got it.');
      await expect(replies.nth(1).getByTestId('chat-demo-label')).toHaveText(t.demo);
      await expect(replies.nth(0).getByTestId('chat-demo-label')).toHaveCount(0);

      for (const answer of ['120', lng === 'es' ? 'En junio, en Cádiz' : 'In June, in Cádiz']) {
        const before = await replies.count();
        await input.fill(answer);
        await input.press('Enter');
        await expect(replies).toHaveCount(before + 1, { timeout: 20_000 });
        await expect(writing).toHaveCount(0, { timeout: 20_000 });
        await expect(input).toBeEnabled();
      }

      // The summary repeats a long answer: stopped halfway, nothing of it is kept and the message comes back.
      // While it is written the bubble grows, the composer is locked and Stop takes Send's place.
      await input.fill(LONG_ANSWER);
      await input.press('Enter');
      await expect(writing.getByTestId('chat-demo-label')).toHaveText(t.demo);
      await expect(input).toBeDisabled();
      await expect(page.getByRole('button', { name: t.send, exact: true })).toHaveCount(0);
      // Stopped at once, as a person may: before or after the reply's first words, nothing of it is kept.
      await page.getByRole('button', { name: t.stop, exact: true }).click();
      await expect(page.locator('[role=log]').getByText(t.stopped)).toBeVisible();
      await expect(writing).toHaveCount(0);
      await expect(input).toBeEnabled();
      await expect(input).toHaveValue(LONG_ANSWER);
      await expectAccessible(page);
      await screenshot(page, `chat-stream-stopped-${lng}-${width}`);

      // Sent again, the summary is written to the end and the run goes to the workflow.
      await page.getByRole('button', { name: t.send, exact: true }).click();
      await expect(input).toBeDisabled();
      await screenshot(page, `chat-stream-writing-${lng}-${width}`);
      await expectResultScreen(page);
      await expect(page.getByRole('heading', { name: t.done })).toBeVisible();
      expect(await markerSeen()).toBe(false);
      await expectAccessible(page);
      await screenshot(page, `chat-stream-result-${lng}-${width}`);
    });
  }
}
