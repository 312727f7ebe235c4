import type { FullConfig } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config.js';
import { fetchApi, raiseSignupLimit, setConfigEntry } from '../src/server/test/signup-limit.js';

/**
 * Playwright globalSetup (run once the web server answers): the journeys sign up far more people from this
 * machine than `signups_per_ip_per_hour` allows, so the admin raises it through the config API first. The
 * journeys also run the always-failing demo workflow many times, which would pause it (decision 146) for the
 * journeys after: auto-pause is off for them, and the incidents journey (@settings) turns it on for itself.
 */
export default async function raiseE2eSignupLimit(config: FullConfig): Promise<void> {
  const baseUrl = config.projects[0]?.use.baseURL;
  if (!baseUrl) throw new Error('playwright.config.ts sets no baseURL');
  await raiseSignupLimit(fetchApi(baseUrl), E2E_ADMIN);
  await setConfigEntry(fetchApi(baseUrl), E2E_ADMIN, 'auto_pause_consecutive_failures', 0);
}
