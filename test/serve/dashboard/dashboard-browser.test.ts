import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_MISSING, launchChromium } from '../../helpers/chromium.js';
import { ADMIN, ALICE, startDashboardNode, textOf, type DashboardNode } from './dashboard-fixture.js';

if (CHROMIUM_MISSING !== undefined) console.warn(CHROMIUM_MISSING);

describe.skipIf(CHROMIUM_MISSING !== undefined)('the dashboard in a real browser (headless Chromium)', () => {
  let node: DashboardNode;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

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
    page.on('pageerror', (error) => problems.push(error.message));
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await node?.close();
  });

  it('logs in, watches a session appear, approves a call, stops a process and sees a refusal', async () => {
    await page.goto(`${node.origin}/ui`);
    await page.locator('#login-token').fill(ALICE);
    await page.locator('#login-form button').click();
    await expect.poll(() => page.locator('#login-error').textContent()).toContain('not the admin token');

    await page.locator('#login-token').fill(ADMIN);
    await page.locator('#login-form button').click();
    await page.locator('[data-testid=status]', { hasText: 'live' }).waitFor();

    const alice = await node.client(ALICE);
    await page.locator('[data-testid=session][data-user=alice]').waitFor();

    const call = alice.callTool({ name: 'write_file', arguments: { path: 'from-browser.md', content: 'approved in Chromium' } });
    await page.locator('[data-testid=approval][data-tool=write_file]').waitFor();
    await page.locator('[data-testid=approval] [data-testid=approve-allow]').click();
    const result = await call;
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(fs.readFileSync(node.home.at('alice/from-browser.md'), 'utf8')).toBe('approved in Chromium');
    await page.locator('[data-testid=approval]').waitFor({ state: 'detached' });
    await page.locator('[data-testid=audit-row][data-tool=write_file][data-decision=allow]').waitFor();

    expect((await alice.callTool({ name: 'bash', arguments: { action: 'start', command: 'echo serving-in-browser; sleep 60' } })).isError).toBeFalsy();
    await page.locator('[data-testid=process][data-status=running]', { hasText: 'serving-in-browser' }).waitFor();
    await page.locator('[data-testid=process][data-status=running] [data-testid=stop-process]').click();
    await page.locator('[data-testid=process][data-status=killed]').waitFor();

    expect((await alice.callTool({ name: 'bash', arguments: { command: 'git push origin main' } })).isError).toBe(true);
    const refusal = page.locator('[data-testid=audit-row][data-tool=bash][data-decision=deny]');
    await refusal.waitFor();
    expect(await refusal.textContent()).toContain('POLICY_DENIED');

    // The filter narrows the stream to refusals.
    await page.locator('#filter-decision').selectOption('deny');
    await expect.poll(() => page.locator('[data-testid=audit-row][data-decision=allow]').count()).toBe(0);
    expect(await page.locator('[data-testid=audit-row][data-decision=deny]').count()).toBeGreaterThan(0);

    // The login cookie is HttpOnly: the page's script cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
    expect(problems).toEqual([]);
    await alice.close();
  }, 30_000);
});
