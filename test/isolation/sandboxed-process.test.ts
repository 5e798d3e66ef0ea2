import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { hasBwrap } from '../helpers/has-bwrap.js';

// Build first. Needs bubblewrap, as CI installs it.

let rt: Runtime;
let ws: TempTree;
let modules: TempTree;
let server: http.Server;
let url: string;
let requests = 0;

/** Processes whose command line holds the marker (the unique module directory the tool process may read). */
function processesWith(marker: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', marker], { encoding: 'utf8' }).split('\n').filter(Boolean);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  ws = makeTempTree('tw-iso-bwrap', { 'a.txt': 'inside\n' });
  // A private copy of the fixture, so its directory (in the process's --allow-fs-read) marks this suite's processes.
  modules = makeTempTree('tw-iso-mods');
  fs.copyFileSync('test/isolation/fixtures/direct-tools.mjs', modules.at('direct-tools.mjs'));
  fs.mkdirSync(modules.at('node_modules'));
  fs.symlinkSync(path.resolve('.'), modules.at('node_modules/toolwarden'));
  fs.symlinkSync(path.resolve('node_modules/zod'), modules.at('node_modules/zod'));
  fs.writeFileSync(modules.at('package.json'), JSON.stringify({ type: 'module', dependencies: { toolwarden: '*', zod: '*' } }));
  server = http.createServer((_req, res) => {
    requests += 1;
    res.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  rt = await createRuntime({ idleWorkers: 0, sandbox: 'required' });
});
afterAll(async () => {
  await rt?.close();
  server?.close();
  ws?.cleanup();
  modules?.cleanup();
});

async function open(): Promise<Session> {
  return rt.openSession({ workspaceRoot: ws.root, tools: ['connect_direct', 'who_am_i'], toolModules: [modules.at('direct-tools.mjs')], isolation: 'process' });
}

describe.skipIf(!hasBwrap)("isolation 'process' inside bubblewrap", () => {
  it('gives the tool process no network: a local server sees no request', async () => {
    const s = await open();
    const result = await s.call('connect_direct', { url });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(requests).toBe(0);
    await s.close();
  });

  it('confines the real tool process like a command: filter, no capabilities or new privileges, own user namespace, no /sys, /proc/sys read-only, a capped /tmp', async () => {
    const s = await open();
    await s.call('who_am_i', {});
    const node = fs.realpathSync(process.execPath);
    const pid = processesWith(modules.root).find((p) => fs.readlinkSync(`/proc/${p}/exe`) === node);
    expect(pid).toBeDefined();
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    expect(status).toMatch(/^Seccomp:\s+2$/m);
    expect(status).toMatch(/^NoNewPrivs:\s+1$/m);
    expect(status).toMatch(/^CapEff:\s+0+$/m);
    // mountinfo fields: 5 is the mount point, 6 its options; the super options follow the " - " separator.
    const mounts = fs.readFileSync(`/proc/${pid}/mountinfo`, 'utf8').split('\n').filter(Boolean).map((line) => line.split(' '));
    expect(mounts.filter((m) => m[4] === '/sys' || m[4]?.startsWith('/sys/'))).toEqual([]);
    expect(mounts.find((m) => m[4] === '/proc/sys')?.[5]).toMatch(/^ro\b/);
    expect(mounts.find((m) => m[4] === '/tmp')?.join(' ')).toMatch(/ - tmpfs .*size=524288k/);
    expect(mounts.find((m) => m[4] === ws.root)).toBeUndefined();
    if ((await detectSandbox()).userNamespace === true) expect(fs.readlinkSync(`/proc/${pid}/ns/user`)).not.toBe(fs.readlinkSync('/proc/self/ns/user'));
    await s.close();
  });

  it('leaves no tool process behind when the runtime closes', async () => {
    const local = await createRuntime({ idleWorkers: 0, sandbox: 'required' });
    const s = await local.openSession({ workspaceRoot: ws.root, tools: ['connect_direct'], toolModules: [modules.at('direct-tools.mjs')], isolation: 'process' });
    expect(textOf(await s.call('connect_direct', { url: 'http://127.0.0.1:1/' }))).toContain('TOOL_FAILED');
    expect(processesWith(modules.root).length).toBeGreaterThan(0);
    await local.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(processesWith(modules.root)).toEqual([]);
  });
});
