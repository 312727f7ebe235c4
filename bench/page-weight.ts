import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ensureWebBuild } from './lib/build.js';
import { PORTS, WEB_DIR, WORK_DIR } from './lib/paths.js';
import type { SectionResult } from './lib/results.js';
import { openTarget, seedUsers, seedWorkflows } from './lib/seed.js';
import { startServer, type DatabaseTarget } from './lib/server.js';
import type { Settings } from './lib/settings.js';
import { median, round, sleep } from './lib/stats.js';

const JS_BUDGET_KB = 160;
const CSS_BUDGET_KB = 15;
const FCP_BUDGET_MS = 1000;
/** First-party bytes a cold load moves over the network (headers and bodies as sent), kB = 1000 bytes. */
const TRANSFER_BUDGET_KB = 170;
/** As in playwright.config.ts. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const gzipKb = (file: string) => gzipSync(readFileSync(join(WEB_DIR, file))).length / 1000;

/** The files index.html loads before the app can paint, with the JS modules they import statically. */
function initialAssets(): { js: string[]; css: string[] } {
  const html = readFileSync(join(WEB_DIR, 'index.html'), 'utf8');
  const attr = (re: RegExp) => [...html.matchAll(re)].map((m) => m[1]!.replace(/^\//, ''));
  const entries = [
    ...attr(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
    ...attr(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
  ];
  const css = attr(/<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
  const js = new Set<string>();
  const visit = (file: string) => {
    if (js.has(file)) return;
    js.add(file);
    const code = readFileSync(join(WEB_DIR, file), 'utf8');
    const dir = file.slice(0, file.lastIndexOf('/') + 1);
    // Static imports only (`import{a}from"./x.js"`, `import"./x.js"`, `export*from"./x.js"`), never import().
    for (const m of code.matchAll(
      /(?:\bimport|\bexport)\s*(?:[\w$*{}\s,]+?\s*from\s*)?["'](\.\.?\/[^"']+\.js)["']/g,
    )) {
      visit(join(dir, m[1]!).replace(/\\/g, '/'));
    }
  };
  entries.forEach(visit);
  return { js: [...js], css };
}

/**
 * `use` on a page of a new browser context (empty cache, as a first visit), signed in with `cookie` when given;
 * the context is closed afterwards.
 */
async function onColdPage<T>(
  browser: Browser,
  url: string,
  cookie: string | undefined,
  use: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    if (cookie) await context.addCookies([{ name: 'flujo_session', value: cookie, url }]);
    return await use(await context.newPage());
  } finally {
    await context.close();
  }
}

async function firstContentfulPaint(browser: Browser, url: string, cookie?: string): Promise<number> {
  return onColdPage(browser, url, cookie, async (page) => {
    await page.goto(url, { waitUntil: 'load' });
    const fcp = await page.waitForFunction(
      () => performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
      undefined,
      { timeout: 10_000 },
    );
    return (await fcp.jsonValue()) as number;
  });
}

/**
 * When the catalogue's first workflow card is on screen, in ms from the start of a cold load of `url`: the page's
 * code, its screen's chunk and its data, as the person waits for them. Looked for at every frame.
 */
async function firstCardShown(browser: Browser, url: string, cookie: string): Promise<number> {
  return onColdPage(browser, url, cookie, async (page) => {
    await page.goto(url, { waitUntil: 'commit' });
    const shown = await page.waitForFunction(
      (selector: string) => {
        // Runs in the page; the bench's own types have no DOM.
        const page = globalThis as unknown as { document: { querySelector(s: string): unknown } };
        return page.document.querySelector(selector) !== null && performance.now();
      },
      '[data-testid="workflow-card"]',
      { timeout: 10_000, polling: 'raf' },
    );
    return (await shown.jsonValue()) as number;
  });
}

interface Transfer {
  url: string;
  /** Bytes received for the request as Chromium counts them (Network.loadingFinished encodedDataLength). */
  bytes: number;
  encoding: string;
}

/**
 * A cold load of `url` in a new context (empty cache) until its screen is shown and the network is quiet: every
 * first-party request with the bytes Chromium received for it, from the DevTools protocol's network events.
 */
async function coldLoadTransfers(browser: Browser, url: string, cookie?: string): Promise<Transfer[]> {
  return onColdPage(browser, url, cookie, async (page) => {
    const cdp = await page.context().newCDPSession(page);
    const origin = new URL(url).origin;
    const responses = new Map<string, { url: string; encoding: string }>();
    const transfers: Transfer[] = [];
    const inFlight = new Set<string>();
    let lastActivity = performance.now();
    const settle = (id: string) => {
      inFlight.delete(id);
      lastActivity = performance.now();
    };
    cdp.on('Network.requestWillBeSent', (e) => {
      inFlight.add(e.requestId);
      lastActivity = performance.now();
    });
    cdp.on('Network.loadingFailed', (e) => settle(e.requestId));
    cdp.on('Network.responseReceived', (e) => {
      const headers = Object.fromEntries(
        Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]),
      );
      responses.set(e.requestId, {
        url: e.response.url,
        encoding: headers['content-encoding'] ?? 'identity',
      });
    });
    cdp.on('Network.loadingFinished', (e) => {
      settle(e.requestId);
      const response = responses.get(e.requestId);
      if (response && new URL(response.url).origin === origin) {
        transfers.push({ ...response, bytes: e.encodedDataLength });
      }
    });
    await cdp.send('Network.enable');
    await page.goto(url, { waitUntil: 'load' });
    // The screen's heading, then half a second without a request: on a busy machine the script can take
    // longer than that to run, and Playwright's own `networkidle` would end the count before the screen's
    // chunk and its data were asked for.
    await page.locator('main h1').first().waitFor({ timeout: 30_000 });
    const deadline = performance.now() + 30_000;
    while ((inFlight.size > 0 || performance.now() - lastActivity < 500) && performance.now() < deadline) {
      await sleep(50);
    }
    return transfers;
  });
}

/**
 * Initial JS and CSS of `/` (gzip), the bytes a cold load of `/` and `/workflows` moves, and their first
 * contentful paint, in Chromium.
 */
export async function benchPageWeight(settings: Settings): Promise<SectionResult> {
  const section: SectionResult = {
    id: 'page-weight',
    title: 'Page weight and speed',
    ranAt: new Date().toISOString(),
    quick: settings.quick,
    command: 'npm run bench -- page-weight',
    checks: [],
    notes: [],
    details: [],
  };
  if (!ensureWebBuild()) {
    section.checks.push({ what: 'web build', measured: 'vite build failed', budget: 'builds', pass: false });
    return section;
  }
  const assets = initialAssets();
  const jsKb = assets.js.reduce((sum, f) => sum + gzipKb(f), 0);
  const cssKb = assets.css.reduce((sum, f) => sum + gzipKb(f), 0);
  section.checks.push(
    {
      what: 'initial JS of / (gzip)',
      measured: `${round(jsKb, 1)} kB`,
      budget: `<= ${JS_BUDGET_KB} kB`,
      pass: jsKb <= JS_BUDGET_KB,
    },
    {
      what: 'initial CSS of / (gzip)',
      measured: `${round(cssKb, 1)} kB`,
      budget: `<= ${CSS_BUDGET_KB} kB`,
      pass: cssKb <= CSS_BUDGET_KB,
    },
  );
  section.details.push(
    'Initial files (gzip -6, kB = 1000 bytes):',
    '',
    ...[...assets.js, ...assets.css].map((f) => `- ${f}: ${round(gzipKb(f), 1)} kB`),
  );

  const dir = join(WORK_DIR, 'page-weight');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const target: DatabaseTarget = { kind: 'pglite', dataDir: dir };
  const database = await openTarget(target);
  const [admin] = await seedUsers(database.db, { count: 1, credits: 0, prefix: 'admin', isAdmin: true });
  await seedWorkflows(database.db, admin!.id, 12);
  const [user] = await seedUsers(database.db, { count: 1, credits: 50, prefix: 'visitor' });
  await database.close();

  const server = await startServer({
    database: target,
    port: PORTS.server,
    logFile: join(dir, 'server.log'),
  });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const pages: Array<{ path: string; who: string; cookie?: string }> = [
      { path: '/', who: 'a visitor' },
      { path: '/workflows', who: 'a signed-in user', cookie: user!.token },
    ];
    for (const p of pages) {
      const transfers = await coldLoadTransfers(browser, server.url + p.path, p.cookie);
      const kb = transfers.reduce((sum, r) => sum + r.bytes, 0) / 1000;
      section.checks.push({
        what: `bytes transferred by a cold load of ${p.path} (${p.who}), first-party`,
        measured: `${round(kb, 1)} kB in ${transfers.length} requests`,
        budget: `<= ${TRANSFER_BUDGET_KB} kB`,
        pass: kb <= TRANSFER_BUDGET_KB,
      });
      section.details.push(
        '',
        `Cold load of ${p.path}, bytes received per request (kB, coding):`,
        '',
        ...transfers.map(
          (r) => `- ${new URL(r.url).pathname}: ${round(r.bytes / 1000, 1)} kB, ${r.encoding}`,
        ),
      );
    }
    // One load each first, so the server's own first-request work is not counted as the page's.
    for (const p of pages) await firstContentfulPaint(browser, server.url + p.path, p.cookie);
    for (const p of pages) {
      const samples: number[] = [];
      for (let i = 0; i < settings.pageLoads; i++) {
        samples.push(await firstContentfulPaint(browser, server.url + p.path, p.cookie));
      }
      const fcp = median(samples);
      section.checks.push({
        what: `first contentful paint of ${p.path} (${p.who}), median of ${settings.pageLoads} cold loads`,
        measured: `${round(fcp)} ms`,
        budget: `< ${FCP_BUDGET_MS} ms`,
        pass: fcp < FCP_BUDGET_MS,
      });
      section.details.push('', `FCP samples of ${p.path} (ms): ${samples.map((s) => round(s)).join(', ')}.`);
    }
    const cards: number[] = [];
    for (let i = 0; i < settings.pageLoads; i++)
      cards.push(await firstCardShown(browser, `${server.url}/workflows`, user!.token));
    const card = median(cards);
    section.checks.push({
      what: `first workflow card on screen, /workflows (a signed-in user), median of ${settings.pageLoads} cold loads`,
      measured: `${round(card)} ms`,
      budget: `< ${FCP_BUDGET_MS} ms`,
      pass: card < FCP_BUDGET_MS,
    });
    section.details.push(
      '',
      `First-card samples of /workflows (ms): ${cards.map((s) => round(s)).join(', ')}.`,
    );
  } finally {
    await browser.close();
    await server.stop();
  }
  section.notes.push(
    'Initial JS: the script and modulepreload tags of the built index.html plus every module they import statically (lazy screens, loaded with import(), are not counted).',
    "Bytes transferred: the sum of Chromium's Network.loadingFinished encodedDataLength (headers and body as received, compressed when the server compressed) for every request to the server's origin during one cold load (new context, empty cache) until the screen's heading is shown and no request has been in flight for half a second.",
    'First card: from the start of the navigation until a workflow card is in the page, looked for at every animation frame.',
    'FCP: Debian Chromium headless through playwright-core (arguments as in playwright.config.ts), 1280x800, a new browser context (empty cache) per load, from the production server on 127.0.0.1 (PGlite, 12 workflows). The browser is not pinned.',
  );
  return section;
}
