import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetPermission } from '../../src/net/net-permission.js';
import type { SandboxScope } from '../../src/sandbox/types.js';
import { createSandbox } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';

const detection = await detectSandbox();
const SECRET = `TOP-SECRET-${process.pid}`;
const ENV = { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' };
let base = '';
let ws = '';
let readRoot = '';
let otherWs = '';
let server: Server;
let port = 0;
let requests = 0;

function scopeWith(net: NetPermission): SandboxScope {
  const nodePrefix = dirname(dirname(process.execPath));
  return {
    workspaceRoot: ws,
    readRoots: [readRoot, ...(nodePrefix.startsWith('/usr') ? [] : [nodePrefix])],
    blockedInWorkspace: [join(ws, '.git/hooks')],
    net,
  };
}

function run(argv: string[], net: NetPermission = false): Promise<{ code: number; out: string }> {
  const { sandbox } = createSandbox('required', detection);
  const [program = '', ...args] = sandbox.wrap(argv, scopeWith(net), ws);
  return new Promise((resolve) => {
    execFile(program, args, { env: ENV, timeout: 15_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, out: `${stdout}${stderr}` });
    });
  });
}

beforeAll(async () => {
  base = mkdtempSync(join(tmpdir(), 'tw-sandbox-'));
  ws = join(base, 'ws');
  readRoot = join(base, 'ro');
  otherWs = join(base, 'other-session');
  for (const dir of [join(ws, '.git/hooks'), readRoot, otherWs]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(ws, 'inside.txt'), 'inside');
  writeFileSync(join(readRoot, 'ref.txt'), 'reference');
  writeFileSync(join(otherWs, 'secret.txt'), SECRET);
  writeFileSync(join(base, 'secret.txt'), SECRET);
  server = createServer((_req, res) => {
    requests += 1;
    res.end('reached');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  if (base) rmSync(base, { recursive: true, force: true });
});

describe.runIf(detection.available)('bubblewrap sandbox (bwrap at %s)', () => {
  const secret = (): string => join(base, 'secret.txt');
  const other = (): string => join(otherWs, 'secret.txt');

  it.each<[string, () => string[]]>([
    ['node reads a file next to the workspace', () => ['node', '-e', `process.stdout.write(require('fs').readFileSync(${JSON.stringify(secret())}, 'utf8'))`]],
    ['python3 reads another session\'s workspace', () => ['python3', '-c', `print(open(${JSON.stringify(other())}).read())`]],
    ['sh cats a file through ..', () => ['sh', '-c', `cat ${ws}/../secret.txt`]],
    ['sh cats through a symlink planted in the workspace', () => ['sh', '-c', `ln -s ${secret()} ${ws}/link && cat ${ws}/link`]],
    ['node lists /root', () => ['node', '-e', `console.log(require('fs').readdirSync('/root'))`]],
    ['python3 lists the other workspace', () => ['python3', '-c', `import os; print(os.listdir(${JSON.stringify(otherWs)}))`]],
    ['sh lists the parent of the workspace', () => ['sh', '-c', `ls ${base} | grep -q secret && echo ${'TOP-SECRET'}-listed`]],
    ['sh reads /etc/shadow', () => ['sh', '-c', 'cat /etc/shadow | grep -q root && echo TOP-SECRET-shadow']],
    ['sh reads the host /proc of pid 1', () => ['sh', '-c', `grep -q ${process.pid} /proc/${process.pid}/status 2>/dev/null && echo TOP-SECRET-proc`]],
  ])('refuses: %s', async (_name, argv) => {
    const { out } = await run(argv());
    expect(out).not.toContain('TOP-SECRET');
    expect(out).not.toMatch(/secret\.txt'?\s*\]/);
  });

  // Writes under the private /tmp (the workspace's parent here) succeed in the sandbox but never reach the host.
  it.each<[string, () => string[], () => string]>([
    ['node writes next to the workspace', () => ['node', '-e', `require('fs').writeFileSync(${JSON.stringify(join(base, 'out-node'))}, 'x')`], () => join(base, 'out-node')],
    ['python3 writes into a read root', () => ['python3', '-c', `open(${JSON.stringify(join(readRoot, 'out-py'))}, 'w').write('x')`], () => join(readRoot, 'out-py')],
    ['sh plants a git hook', () => ['sh', '-c', `echo evil > ${ws}/.git/hooks/pre-commit`], () => join(ws, '.git/hooks/pre-commit')],
    ['sh moves .git/hooks away to replace it', () => ['sh', '-c', `mv ${ws}/.git/hooks ${ws}/.git/h2 && mkdir ${ws}/.git/hooks && echo evil > ${ws}/.git/hooks/pre-commit`], () => join(ws, '.git/h2')],
    ['sh, as root, unmounts .git/hooks to write a hook', () => ['sh', '-c', `umount ${ws}/.git/hooks; echo evil > ${ws}/.git/hooks/post-checkout`], () => join(ws, '.git/hooks/post-checkout')],
    ['sh writes into another session workspace', () => ['sh', '-c', `echo x > ${otherWs}/out-sh`], () => join(otherWs, 'out-sh')],
    ['sh writes to /etc', () => ['sh', '-c', 'echo x > /etc/tw-sandbox-test'], () => '/etc/tw-sandbox-test'],
  ])('keeps off the host: %s', async (_name, argv, hostPath) => {
    const { code } = await run(argv());
    expect(existsSync(hostPath())).toBe(false);
    if (!hostPath().startsWith(base) || hostPath().startsWith(ws) || hostPath().startsWith(readRoot)) expect(code).not.toBe(0);
  });

  it.each<[string, () => string[], string]>([
    ['node reads inside the workspace', () => ['node', '-e', `process.stdout.write(require('fs').readFileSync('inside.txt', 'utf8'))`], 'inside'],
    ['python3 reads a read root', () => ['python3', '-c', `print(open(${JSON.stringify(join(readRoot, 'ref.txt'))}).read())`], 'reference'],
    ['sh writes and reads back in the workspace', () => ['sh', '-c', 'echo made > made.txt && cat made.txt'], 'made'],
    ['sh writes to the private /tmp and HOME', () => ['sh', '-c', 'echo t > /tmp/t && echo h > "$HOME/h" && cat /tmp/t "$HOME/h"'], 't\nh'],
    ['sh runs in the workspace as its cwd', () => ['sh', '-c', 'pwd'], '__WS__'],
  ])('allows: %s', async (_name, argv, expected) => {
    const { code, out } = await run(argv());
    expect(out.trim()).toBe(expected.replace('__WS__', ws));
    expect(code).toBe(0);
  });

  it('leaves workspace writes on the host', async () => {
    await run(['sh', '-c', 'echo kept > kept.txt']);
    expect(readFileSync(join(ws, 'kept.txt'), 'utf8')).toBe('kept\n');
  });

  it.each<[string, NetPermission, number]>([
    ['no permission', false, 0],
    ['a host list (commands get no network unless every host is allowed)', ['127.0.0.1'], 0],
    ["every host ('*')", ['*'], 2],
  ])('network with %s (net %j): the host server sees %d requests', async (_name, net, expected) => {
    requests = 0;
    const url = `http://127.0.0.1:${port}/`;
    const curl = await run(['curl', '-sS', '-m', '5', url], net);
    const node = await run(['node', '-e', `fetch(${JSON.stringify(url)}).then((r) => r.text()).then(console.log)`], net);
    expect(requests).toBe(expected);
    expect(curl.out.includes('reached')).toBe(expected > 0);
    expect(node.out.includes('reached')).toBe(expected > 0);
  });
});

describe.runIf(detection.available)('bubblewrap sandbox, workspace without .git/hooks', () => {
  it('mounts an empty read-only hooks directory so no hook can be planted', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tw-sandbox-nohooks-'));
    try {
      mkdirSync(join(root, '.git'));
      const { sandbox } = createSandbox('required', detection);
      const scope: SandboxScope = { workspaceRoot: root, readRoots: [], blockedInWorkspace: [join(root, '.git/hooks')], net: false };
      const [program = '', ...args] = sandbox.wrap(['sh', '-c', 'echo evil > .git/hooks/pre-commit; echo ok > file'], scope, root);
      await new Promise((resolve) => execFile(program, args, { env: ENV }, resolve));
      expect(existsSync(join(root, '.git/hooks/pre-commit'))).toBe(false);
      expect(readFileSync(join(root, 'file'), 'utf8')).toBe('ok\n');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

it('detects bwrap on this machine (the suite above is skipped without it)', () => {
  // Keeps a missing bwrap visible in the test output instead of silently skipping everything.
  expect(detection.reason ?? 'available').toBe('available');
});
