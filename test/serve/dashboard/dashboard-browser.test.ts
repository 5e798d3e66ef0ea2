import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_MISSING, launchChromium } from '../../helpers/chromium.js';
import { ADMIN, ALICE, BOB, startDashboardNode, textOf, type DashboardNode } from './dashboard-fixture.js';

if (CHROMIUM_MISSING !== undefined) console.warn(CHROMIUM_MISSING);

// Run in the page (the tests' TypeScript has no DOM types, so these are source text for page.evaluate).
/** Words of the audit table the browser broke across two lines: a word's box lies on one line, or it was cut. */
const WORDS_CUT_ACROSS_LINES = `(() => {
  const cut = [];
  let checked = 0;
  const walker = document.createTreeWalker(document.querySelector('#audit'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
    for (const match of node.textContent.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
      checked += 1;
      if (lines.size > 1) cut.push(match[0]);
    }
  }
  return { checked, cut };
})()`;

/** Resolves when the page next re-renders the list `selector` (each snapshot, at least once a second, replaces it). */
const nextRender = (selector: string): string => `new Promise((resolve) => {
  new MutationObserver((_, observer) => {
    observer.disconnect();
    resolve(true);
  }).observe(document.querySelector(${JSON.stringify(selector)}), { childList: true });
})`;

describe.skipIf(CHROMIUM_MISSING !== undefined)('the dashboard in a real browser (headless Chromium)', () => {
  let node: DashboardNode;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const posted: string[] = [];

  beforeAll(async () => {
    [node, browser] = await Promise.all([startDashboardNode({ approvalTimeoutMs: 10_000 }), launchChromium()]);
    page = await browser.newPage();
    // A CSP violation or a script error would show here: the page must run with no inline code.
    page.on('console', (message) => {
      // Failed responses are checked below, by URL; anything else logged as an error (a CSP refusal) is a problem.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
    });
    page.on('response', (response) => {
      const { pathname } = new URL(response.url());
      const expected = (response.status() === 401 && ['/ui/api/state', '/ui/login'].includes(pathname)) || pathname === '/favicon.ico';
      if (response.status() >= 400 && !expected) problems.push(`${response.status()} ${pathname}`);
    });
    page.on('request', (request) => {
      if (request.method() === 'POST') posted.push(new URL(request.url()).pathname);
    });
    page.on('pageerror', (error) => problems.push(error.message));
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await node?.close();
  });

  it('shows the login box alone before login: no empty cards under it', async () => {
    await page.goto(`${node.origin}/ui`);
    await page.locator('#login').waitFor({ state: 'visible' });
    expect(await page.locator('#main').isVisible()).toBe(false);
    expect(await page.locator('.card:visible').count()).toBe(1);
    expect(await page.locator('[data-testid=status]').textContent()).toBe('logged out');
  });

  it('logs in, watches a session appear, approves a call, stops a process and sees a refusal', async () => {
    await page.locator('#login-token').fill(ALICE);
    await page.locator('#login-form button').click();
    await expect.poll(() => page.locator('#login-error').textContent()).toContain('not the admin token');

    await page.locator('#login-token').fill(ADMIN);
    await page.locator('#login-form button').click();
    await page.locator('[data-testid=status]', { hasText: 'live' }).waitFor();
    expect(await page.locator('#login').isVisible()).toBe(false);

    const alice = await node.client(ALICE);
    await page.locator('[data-testid=session][data-user=alice]').waitFor();
    // The client's name (its initialize clientInfo) and the user, beside the session id.
    const row = page.locator('[data-testid=session][data-user=alice] .row').first();
    expect(await row.locator('[data-testid=session-client]').textContent()).toBe('dashboard-test 1.0.0');
    expect(await row.locator('[data-testid=session-user]').textContent()).toBe('user alice');
    expect(await row.locator('code').textContent()).toMatch(/^[0-9a-f]{8}$/);

    const call = alice.callTool({ name: 'write_file', arguments: { path: 'from-browser.md', content: 'approved in Chromium' } });
    await page.locator('[data-testid=approval][data-tool=write_file]').waitFor();
    // approvalTimeoutMs (10 s) comes before the call's toolTimeoutMs (30 s): the page says which ends the wait.
    expect(await page.locator('[data-testid=approval] [data-testid=time-left]').textContent()).toMatch(/^\d+ s left \(approval timeout\)$/);
    await page.locator('[data-testid=approval] [data-testid=approve-allow]').click();
    const result = await call;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(fs.readFileSync(node.home.at('alice/from-browser.md'), 'utf8')).toBe('approved in Chromium');
    await page.locator('[data-testid=approval]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=audit-row][data-tool=write_file][data-decision=allow]').waitFor();

    expect((await alice.callTool({ name: 'bash', arguments: { action: 'start', command: 'echo serving-in-browser; sleep 60' } })).isError).toBeFalsy();
    const running = page.locator('[data-testid=process][data-status=running]', { hasText: 'serving-in-browser' });
    await running.waitFor();
    expect(await running.textContent()).toContain('dashboard-test 1.0.0, user alice, session ');
    // Stop takes two clicks: the first only asks, and survives the page's re-render of each snapshot.
    await running.locator('[data-testid=stop-process]').click();
    await running.locator('[data-testid=stop-process-question]').waitFor();
    await page.evaluate(nextRender('#processes'));
    expect(await running.locator('[data-testid=stop-process-question]').isVisible()).toBe(true);
    await running.locator('[data-testid=cancel]').click();
    await running.locator('[data-testid=stop-process-question]').waitFor({ state: 'detached' });
    expect(posted.filter((p) => p.endsWith('/stop'))).toEqual([]);
    await running.locator('[data-testid=stop-process]').click();
    await running.locator('[data-testid=confirm-stop-process]').click();
    await page.locator('[data-testid=process][data-status=killed]').waitFor();
    expect(posted.filter((p) => p.endsWith('/stop'))).toHaveLength(1);

    expect((await alice.callTool({ name: 'bash', arguments: { command: 'git push origin main' } })).isError).toBe(true);
    const refusal = page.locator('[data-testid=audit-row][data-tool=bash][data-decision=deny]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('POLICY_DENIED');

    // The filter narrows the stream to refusals.
    await page.locator('#filter-decision').selectOption('deny');
    await expect.poll(() => page.locator('[data-testid=audit-row][data-decision=allow]').count()).toBe(0);
    expect(await page.locator('[data-testid=audit-row][data-decision=deny]').count()).toBeGreaterThan(0);
    await page.locator('#filter-decision').selectOption('');

    // The login cookie is HttpOnly: the page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(problems).toEqual([]);
    await alice.close();
  }, 30_000);

  it('closes a session only after a second click', async () => {
    const bob = await node.client(BOB);
    const session = page.locator('[data-testid=session][data-user=bob]');
    await session.waitFor();
    await session.locator('[data-testid=close-session]').click();
    await session.locator('[data-testid=close-session-question]').waitFor();
    expect(posted.filter((p) => p.endsWith('/close'))).toEqual([]);
    expect((await bob.callTool({ name: 'read_file', arguments: { path: 'notes.md' } })).isError).toBeFalsy();
    await session.locator('[data-testid=confirm-close-session]').click();
    await session.waitFor({ state: 'detached' });
    expect(posted.filter((p) => p.endsWith('/close'))).toHaveLength(1);
    await expect(bob.callTool({ name: 'read_file', arguments: { path: 'notes.md' } })).rejects.toThrow();
    expect(problems).toEqual([]);
  }, 30_000);

  it('fits a 430 px screen: nothing wider than the screen, the audit wrapping between words', async () => {
    // Long rule names and results in the audit stream.
    const alice = await node.client(ALICE);
    for (const command of ['git push origin main --force-with-lease', 'git push --set-upstream origin feature/a-rather-long-branch-name']) {
      await alice.callTool({ name: 'bash', arguments: { command } });
    }
    await alice.callTool({ name: 'read_file', arguments: { path: '../bob/notes.md' } });
    await page.setViewportSize({ width: 430, height: 900 });
    await page.locator('[data-testid=audit-row][data-tool=read_file][data-decision=deny]').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(430);
    const { checked, cut } = (await page.evaluate(WORDS_CUT_ACROSS_LINES)) as { checked: number; cut: string[] };
    expect(checked).toBeGreaterThan(40);
    expect(cut).toEqual([]);
    await alice.close();
  }, 30_000);
});
