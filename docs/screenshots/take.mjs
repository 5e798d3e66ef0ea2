// Takes docs/dashboard.md's screenshots of the serve --http dashboard: a node with two users, a running process,
// refusals in the audit stream and two calls waiting in the approval inbox, photographed by headless Chromium.
// Run: npm run screenshots (builds first; needs Chromium at /usr/bin/chromium or TOOLWARDEN_CHROMIUM).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { parseServeConfig } from '../../dist/src/serve/serve-config.js';
import { startHttpServer } from '../../dist/runtime/serve/http/serve-http.js';

const OUT = path.dirname(fileURLToPath(import.meta.url));
const token = () => randomBytes(24).toString('base64url');
const [ADMIN, ALICE, BOB] = [token(), token(), token()];

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-screenshots-'));
for (const [file, text] of Object.entries({ 'alice/README.md': '# shop\n', 'alice/src/app.js': 'export {}\n', 'bob/notes.md': 'notes\n' })) {
  fs.mkdirSync(path.dirname(path.join(home, file)), { recursive: true });
  fs.writeFileSync(path.join(home, file), text);
}
const config = parseServeConfig(
  {
    tenants: {
      alice: { workspaceRoot: 'alice', maxSessions: 3, tools: ['read_file', 'write_file', 'list_dir', 'bash'], permissions: { write_file: 'ask', bash: { allow: ['*'], ask: ['rm *'], deny: ['git push*'] } } },
      bob: { workspaceRoot: 'bob', tools: ['read_file', 'grep'] },
    },
    tokens: { [ALICE]: 'alice', [BOB]: 'bob' },
    sandbox: 'off',
    approvalTimeoutMs: 600_000,
    // A call may wait for its approval longer than the default toolTimeoutMs (30 s).
    limits: { toolTimeoutMs: 900_000 },
    admin: { token: ADMIN },
    dashboard: { enabled: true },
  },
  home,
);
const server = await startHttpServer({ config, port: 0, log: () => undefined });
const origin = new URL(server.url).origin;

async function client(bearer, name, version) {
  const c = new Client({ name, version });
  await c.connect(new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } }));
  return c;
}

const browser = await chromium.launch({ executablePath: process.env.TOOLWARDEN_CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox', '--headless=new', '--disable-gpu', '--disable-dev-shm-usage'] });
try {
  const [alice, bob] = await Promise.all([client(ALICE, 'agent-cli', '1.4.0'), client(BOB, 'review-bot', '0.9.2')]);
  await bob.callTool({ name: 'read_file', arguments: { path: 'notes.md' } });
  await bob.callTool({ name: 'grep', arguments: { pattern: 'TODO' } });
  await bob.callTool({ name: 'read_file', arguments: { path: '../alice/README.md' } });
  await alice.callTool({ name: 'list_dir', arguments: {} });
  await alice.callTool({ name: 'bash', arguments: { action: 'start', command: 'while true; do echo "GET /health 200 (3 ms)"; sleep 1; done' } });
  await alice.callTool({ name: 'bash', arguments: { command: 'git push origin main' } });
  const waiting = [
    alice.callTool({ name: 'write_file', arguments: { path: 'src/app.js', content: 'export const port = 8080;\n' } }),
    alice.callTool({ name: 'bash', arguments: { command: 'rm -rf *' } }),
  ];

  const page = await browser.newPage({ viewport: { width: 1360, height: 980 }, deviceScaleFactor: 1 });
  await page.goto(`${origin}/ui`);
  await page.locator('#login-token').fill(ADMIN);
  await page.locator('#login-form button').click();
  await page.locator('[data-testid=status]', { hasText: 'live' }).waitFor();
  await page.locator('[data-testid=approval]').nth(1).waitFor();
  await page.locator('[data-testid=process]', { hasText: 'GET /health' }).waitFor();
  await page.screenshot({ path: path.join(OUT, 'dashboard-overview.png'), fullPage: true });
  await page.locator('section.card', { has: page.locator('#approvals') }).screenshot({ path: path.join(OUT, 'dashboard-approvals.png') });
  await page.locator('#filter-decision').selectOption('deny');
  await page.locator('section.card', { has: page.locator('#audit') }).screenshot({ path: path.join(OUT, 'dashboard-audit-refusals.png') });
  await page.setViewportSize({ width: 430, height: 900 });
  await page.screenshot({ path: path.join(OUT, 'dashboard-narrow.png'), fullPage: true });

  for (const item of (await (await fetch(`${origin}/ui/api/state`, { headers: { authorization: `Bearer ${ADMIN}` } })).json()).approvals) {
    await fetch(`${origin}/ui/api/approvals/${item.id}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' }, body: '{"decision":"deny"}' });
  }
  await Promise.all(waiting);
  console.log(`screenshots written to ${path.relative(process.cwd(), OUT) || '.'}`);
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(home, { recursive: true, force: true });
}
