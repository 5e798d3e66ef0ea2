import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finished } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { MAX_FRAME_BYTES } from '../../src/protocol/zygote-frames.js';
import type { SandboxScope, SandboxZygoteSupport } from '../../src/sandbox/types.js';
import { createSandbox } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox } from '../../runtime/sandbox/detect-sandbox.js';
import { runZygoteSelfTest } from '../../runtime/sandbox/run-self-test.js';
import { SessionZygote } from '../../runtime/sandbox/session-zygote.js';
import { SandboxZygote, zygoteProgram } from '../../runtime/sandbox/zygote.js';
import { hasBwrap } from '../helpers/has-bwrap.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// The zygote runs where commands can rewrite it (same uid, same namespaces), so each test here is an attack from a
// command on its own zygote, on the host's side of the protocol, or on another session's zygote; and its near miss.
const detection = hasBwrap ? await detectSandbox() : { available: false };
const support = detection.available ? createSandbox('required', detection).sandbox.zygote : undefined;
const ENV = { PATH: '/usr/bin:/bin' };

interface Ran {
  exitCode: number | null;
  signal: string | null;
  /** Set when the zygote was gone before it reported the spawn (a command can kill it that fast). */
  spawnError?: string;
  out: string;
}

function scopeOf(tree: TempTree): SandboxScope {
  const limits = { tmpBytes: DEFAULT_LIMITS.sandboxTmpBytes, maxProcesses: DEFAULT_LIMITS.commandMaxProcesses, memoryBytes: DEFAULT_LIMITS.commandMemoryBytes, cpuSeconds: 7 };
  return { workspaceRoot: tree.root, readRoots: [], blockedInWorkspace: [], net: false, limits };
}

async function startIn(tree: TempTree): Promise<SandboxZygote> {
  return SandboxZygote.start((support as SandboxZygoteSupport).argv(scopeOf(tree), zygoteProgram()));
}

async function run(zygote: SandboxZygote, tree: TempTree, script: string, after?: (kill: () => void) => void): Promise<Ran> {
  const command = (support as SandboxZygoteSupport).command(['/bin/sh', '-c', script], scopeOf(tree), tree.root, ENV);
  const group = await zygote.spawn(command);
  let out = '';
  const streams = [group.stdout, group.stderr].filter((stream) => stream !== null);
  for (const stream of streams) stream.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  after?.(() => group.signal('SIGKILL'));
  const exit = await group.done;
  await Promise.all(streams.map((stream) => finished(stream)));
  return { exitCode: exit.exitCode, signal: exit.signal, ...(exit.spawnError === undefined ? {} : { spawnError: exit.spawnError }), out };
}

const alive = (pid: number): boolean => existsSync(`/proc/${pid}`) && !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));

/**
 * A zygote rewritten by an attacker, as a command with the zygote's memory could make it: `body` runs with `send`,
 * `frame`, and `onRequest` (called with each decoded request), inside the same bwrap layout as the real one.
 */
function hostile(tree: TempTree, body: string, ready: Record<string, unknown> = { type: 'ready' }, options: { requireSealed?: boolean } = {}): Promise<SandboxZygote> {
  const program = zygoteProgram();
  const dist = program.readOnly[0] ?? '';
  const dir = mkdtempSync(join(tmpdir(), 'tw-hostile-'));
  const file = join(dir, 'hostile.mjs');
  writeFileSync(file, [
    `import { encodeFrame as frame, FrameDecoder } from ${JSON.stringify(join(dist, 'src/protocol/zygote-frames.js'))};`,
    'import { spawn } from "node:child_process";',
    'const send = (event, data) => process.stdout.write(frame(event, data));',
    'const decoder = new FrameDecoder();',
    'let onRequest = () => {};',
    'process.stdin.on("data", (chunk) => { for (const { header } of decoder.push(chunk)) onRequest(header); });',
    `send(${JSON.stringify(ready)});`,
    body,
  ].join('\n'));
  const argv = (support as SandboxZygoteSupport).argv(scopeOf(tree), { argv: [process.execPath, file], readOnly: [...program.readOnly, dir] });
  return SandboxZygote.start(argv, options).finally(() => rmSync(dir, { recursive: true, force: true }));
}

describe.skipIf(!detection.available)('a session sandbox zygote', () => {
  let a: TempTree;
  let b: TempTree;
  beforeAll(() => {
    a = makeTempTree('tw-zyg-a', { 'a.txt': 'a\n' });
    b = makeTempTree('tw-zyg-b', { 'secret.txt': 'B-SECRET\n' });
  });
  afterAll(() => {
    a.cleanup();
    b.cleanup();
  });

  it('proves every self-test property for a command it spawns', async () => {
    const checks = await runZygoteSelfTest(detection);
    // Whether the zygote's memory is writable depends on the kernel (Yama); it is always asked, the rest must hold.
    expect(checks.filter((c) => !c.passed && c.property !== 'zygote-memory-sealed')).toEqual([]);
    expect(checks.map((c) => c.property)).toContain('seccomp-active');
    expect(checks.map((c) => c.property)).toContain('zygote-memory-sealed');
  }, 30_000);

  // The zygote holds the per-command limits itself (hard and soft), so a command inherits them and cannot raise them;
  // RLIMIT_CPU counts each process from zero, so commands never share one budget.
  it('gives each command the rlimits, inherited from the zygote, which cannot be raised', async () => {
    const zygote = await startIn(a);
    try {
      const ran = await run(zygote, a, 'grep "Max cpu time" /proc/self/limits; grep "Max cpu time" /proc/2/limits; grep ^Seccomp: /proc/2/status; ulimit -H -t unlimited 2>/dev/null || echo refused');
      const [own, zygotes, seccomp, raise] = ran.out.trim().split('\n');
      expect(own).toMatch(/Max cpu time\s+7\s+8\s/);
      expect(zygotes).toMatch(/Max cpu time\s+7\s+8\s/);
      expect(seccomp).toMatch(/Seccomp:\s+2/); // the zygote itself runs under the filter, so every command inherits it
      expect(raise).toBe('refused');
    } finally {
      await zygote.close();
    }
  }, 30_000);

  it('RLIMIT_CPU does not accumulate across commands: three of 0.6 s each under a 1 s limit all finish', async () => {
    const tight = { ...scopeOf(a), limits: { ...scopeOf(a).limits!, cpuSeconds: 1 } };
    const zygote = await SandboxZygote.start((support as SandboxZygoteSupport).argv(tight, zygoteProgram()));
    try {
      // A busy loop on the clock (a loop on process.cpuUsage would spend its time in getrusage calls).
      const burn = 'node -e "const t = Date.now(); while (Date.now() - t < 600); console.log(\'burned\')"';
      for (let i = 0; i < 3; i++) {
        const command = (support as SandboxZygoteSupport).command(['/bin/sh', '-c', burn], tight, a.root, ENV);
        const group = await zygote.spawn(command);
        let out = '';
        group.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
        const exit = await group.done;
        await finished(group.stdout!);
        expect({ i, exit, out }).toMatchObject({ exit: { exitCode: 0 }, out: 'burned\n' });
      }
      expect(zygote.cpuSecondsUsed()).toBeLessThan(0.5);
    } finally {
      await zygote.close();
    }
  }, 30_000);

  it('a session retires a zygote past half its CPU budget: the next command gets a fresh one, the old one closes', async () => {
    const zygotes: SandboxZygote[] = [];
    const session = new SessionZygote({
      support: support as SandboxZygoteSupport,
      start: async (argv) => {
        const zygote = await SandboxZygote.start(argv);
        // As if it had relayed enough output to use 4 of its 7 CPU seconds.
        if (zygotes.length === 0) zygote.cpuSecondsUsed = () => 4;
        zygotes.push(zygote);
        return zygote;
      },
      hold: () => undefined,
      release: async () => undefined,
      warn: (message) => expect.fail(message),
    });
    const guard = { existing: [], stubs: [], mounts: new Map() } as never;
    try {
      const first = await session.lease(guard, scopeOf(a), []);
      first?.release();
      await new Promise((resolve) => setImmediate(resolve));
      const second = await session.lease(guard, scopeOf(a), []);
      expect(second?.zygote).toBeDefined();
      expect(second?.zygote).not.toBe(first?.zygote);
      await first?.zygote.ended;
      expect(first?.zygote.lost).toBeUndefined(); // retired, not lost
      second?.release();
    } finally {
      await session.close();
    }
  }, 30_000);

  it("cannot see or signal another session's zygote; killing all it sees loses only its own", async () => {
    const za = await startIn(a);
    const zb = await startIn(b);
    try {
      a.write({ 'probe.sh': `cat /proc/[0-9]*/cmdline 2>/dev/null | tr '\\0' ' '; echo; cat ${b.at('secret.txt')} 2>&1; kill -0 ${zb.hostPids()[2]} 2>&1 || echo no-such-pid\n` });
      const seen = await run(za, a, 'sh probe.sh');
      const [commandLines = '', ...rest] = seen.out.split('\n');
      expect(commandLines).not.toContain(b.root);
      expect(rest.join('\n')).toContain('No such file or directory');
      expect(seen.out).not.toContain('B-SECRET');
      expect(seen.out).toContain('no-such-pid');
      const killed = await run(za, a, 'kill -9 -1; sleep 5');
      expect(killed.exitCode).not.toBe(0);
      expect(za.lost).toMatch(/exited/);
      expect((await run(zb, b, 'echo still-here')).out).toBe('still-here\n');
    } finally {
      await Promise.all([za.close(), zb.close()]);
    }
  }, 30_000);

  // The zygote is non-dumpable, so /proc/<zygote>/fd is closed to commands (and its stdio are sockets besides).
  it("a command cannot reach the zygote's channel to the runtime through /proc", async () => {
    const zygote = await startIn(a);
    try {
      const ran = await run(zygote, a, 'for fd in 0 1 2; do (echo x > /proc/$PPID/fd/$fd) 2>&1 | grep -o "Permission denied"; done');
      expect(ran.out.trim().split('\n')).toEqual(Array(3).fill('Permission denied'));
      expect(zygote.failure).toBeUndefined();
    } finally {
      await zygote.close();
    }
  }, 30_000);

  it('a command that kills its zygote ends with it, and nothing of that sandbox is left', async () => {
    const zygote = await startIn(a);
    const pids = zygote.hostPids();
    const ran = await run(zygote, a, 'kill -9 $PPID; sleep 30');
    expect(ran.exitCode).toBeNull();
    expect(ran.signal === 'SIGKILL' || ran.spawnError !== undefined).toBe(true);
    expect(zygote.lost).toBeDefined();
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);

  it('a zygote that could not make itself non-dumpable is not used: its start fails, naming why', async () => {
    await expect(hostile(a, '', { type: 'ready', unsealed: 'prctl: koffi missing' })).rejects.toThrow(/could not make itself non-dumpable: prctl: koffi missing/);
  });

  it('near miss: with zygote memory writes allowed, an unsealed zygote serves; a sealed one always does', async () => {
    const allowed = await hostile(a, '', { type: 'ready', unsealed: 'prctl: koffi missing' }, { requireSealed: false });
    await allowed.close();
    const sealed = await hostile(a, '');
    await sealed.close();
  });

  it('a hostile zygote announcing a 4 GiB frame and streaming it is killed at the length, not after buffering', async () => {
    const zygote = await hostile(a, 'onRequest = () => { process.stdout.write(Buffer.from("ffffffff", "hex")); const zeros = Buffer.alloc(1 << 20); const flood = () => { while (process.stdout.write(zeros)); process.stdout.once("drain", flood); }; flood(); };');
    const before = process.memoryUsage().arrayBuffers;
    const ran = await run(zygote, a, 'true');
    expect(ran).toMatchObject({ exitCode: null });
    expect(zygote.lost).toMatch(/broke its framing/);
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * MAX_FRAME_BYTES);
  }, 30_000);

  it('a hostile zygote sending events for ids the runtime never gave is ignored for them (near miss: the command completes)', async () => {
    const zygote = await hostile(a, [
      'onRequest = (r) => { if (r.type !== "spawn") return;',
      '  send({ type: "output", id: 9999, stream: "stdout" }, Buffer.from("forged\\n")); send({ type: "exit", id: 9999, exitCode: 0, signal: null }); send({ type: "closed", id: 9999 });',
      '  send({ type: "spawned", id: r.id, pid: 7 }); send({ type: "output", id: r.id, stream: "stdout" }, Buffer.from("real\\n")); send({ type: "exit", id: r.id, exitCode: 0, signal: null }); send({ type: "closed", id: r.id }); };',
    ].join('\n'));
    try {
      const ran = await run(zygote, a, 'true');
      expect(ran).toMatchObject({ exitCode: 0, out: 'real\n' });
      expect(zygote.failure).toBeUndefined();
    } finally {
      await zygote.close();
    }
  }, 30_000);

  it.each([
    ['never answers a spawn (so there is no group to kill)', '', /did not answer a spawn/],
    ['never confirms a kill', 'onRequest = (r) => { if (r.type === "spawn") send({ type: "spawned", id: r.id, pid: 7 }); };', /did not confirm a kill/],
    ['reports an exit it never closes (so the kill would be skipped)', 'onRequest = (r) => { if (r.type === "spawn") { send({ type: "spawned", id: r.id, pid: 7 }); send({ type: "exit", id: r.id, exitCode: 0, signal: null }); } };', /did not close a command after its exit/],
  ])('a hostile zygote that %s is killed from outside, with its whole sandbox', async (_name, body, reason) => {
    const zygote = await hostile(a, body);
    const pids = zygote.hostPids();
    const ran = await run(zygote, a, 'sleep 30', (kill) => setTimeout(kill, 100));
    expect(ran.exitCode === 0 || ran.signal === 'SIGKILL' || ran.spawnError !== undefined).toBe(true);
    expect(zygote.lost).toMatch(reason);
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);

  it('a hostile zygote that starts a process of its own besides the command is found by the host, which kills the sandbox', async () => {
    const zygote = await hostile(a, [
      'onRequest = (r) => { if (r.type !== "spawn") return;',
      '  spawn("/bin/sleep", ["1000"], { detached: true, stdio: "ignore" });',
      '  send({ type: "spawned", id: r.id, pid: 7 }); send({ type: "exit", id: r.id, exitCode: 0, signal: null }); send({ type: "closed", id: r.id }); };',
    ].join('\n'));
    const pids = zygote.hostPids();
    const ran = await run(zygote, a, 'true');
    expect(ran.exitCode).toBe(0);
    expect(zygote.lost).toMatch(/outlived its command/);
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);

  it('near miss: a process of the sandbox that ends within the recheck window (a forwarder handler closing) is waited for, not a loss', async () => {
    const zygote = await hostile(a, [
      'onRequest = (r) => { if (r.type !== "spawn") return;',
      '  spawn("/bin/sleep", ["0.1"], { detached: true, stdio: "ignore" });',
      '  send({ type: "spawned", id: r.id, pid: 7 }); send({ type: "exit", id: r.id, exitCode: 0, signal: null }); send({ type: "closed", id: r.id }); };',
    ].join('\n'));
    try {
      const ran = await run(zygote, a, 'true');
      expect(ran.exitCode).toBe(0);
      expect(zygote.failure).toBeUndefined();
    } finally {
      await zygote.close();
    }
  }, 30_000);

  it('a kill the real zygote does not confirm (it was stopped) kills the whole sandbox from outside', async () => {
    const zygote = await startIn(a);
    const pids = zygote.hostPids();
    const ran = await run(zygote, a, 'sleep 0.2; kill -STOP $PPID; sleep 30', (kill) => setTimeout(kill, 600));
    expect(ran.signal).toBe('SIGKILL');
    expect(zygote.lost).toMatch(/did not confirm a kill/);
    expect(pids.filter(alive)).toEqual([]);
  }, 30_000);

  it('a kill it confirms ends that command only, and orphans it left die with it (near miss: the zygote stays)', async () => {
    const zygote = await startIn(a);
    try {
      const ran = await run(zygote, a, '(setsid sleep 1000 >/dev/null 2>&1 &); sleep 30', (kill) => setTimeout(kill, 300));
      expect(ran.signal).toBe('SIGKILL');
      expect(zygote.failure).toBeUndefined();
      expect((await run(zygote, a, 'ps -eo args | grep -c "^sleep 1000" || true')).out.trim()).toBe('0');
    } finally {
      await zygote.close();
    }
  }, 30_000);
});
