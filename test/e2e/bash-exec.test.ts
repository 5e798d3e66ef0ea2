import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// The bash tool through the public API, with real processes, in both sandbox modes the host can run.
let rt: Runtime;
let ws: TempTree;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-bash-exec', { 'sub/file.txt': 'inside\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

/** Host processes whose command line contains `marker` (ps sees through bwrap's pid namespace). */
function processesWith(marker: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return out.split('\n').filter((line) => line.includes(marker) && !line.includes('ps -eo'));
}

/** Polls until no process carries `marker` (SIGKILLed members are reaped asynchronously); returns the survivors. */
async function survivorsOf(marker: string): Promise<string[]> {
  for (let i = 0; i < 100; i++) {
    if (processesWith(marker).length === 0) return [];
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return processesWith(marker);
}

/** Polls a background process's logs until they contain `needle`; returns the text. */
async function logsUntil(s: Session, processId: string, needle: string): Promise<string> {
  let text = '';
  for (let i = 0; i < 200 && !text.includes(needle); i++) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 25));
    text = (await s.call('bash', { action: 'logs', processId })).structuredContent?.['text'] as string;
  }
  return text;
}

const marker = (): string => `600.${Math.floor(Math.random() * 1e9)}`;

describe.each(['off', 'auto'] as const)('exec with sandbox %s', (sandbox) => {
  let s: Session;
  beforeAll(async () => {
    s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox, limits: { commandTimeoutMs: 20_000 } });
  });
  afterAll(() => s.close());

  it.each([
    ['exit 0 with stdout', 'echo out', 0, 'out\n', ''],
    ['exit 3 with stdout and stderr', 'echo out; echo err >&2; exit 3', 3, 'out\n', 'err\n'],
    ['false', 'false', 1, '', ''],
    ['a pipeline takes its last exit code', 'printf "b\\na\\n" | sort', 0, 'a\nb\n', ''],
  ])('%s', async (_name, command, exitCode, stdout, stderr) => {
    const result = await s.call('bash', { command });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ exitCode, stdout, stderr, timedOut: false, signal: null });
    expect(textOf(result)).toContain(`exit code ${exitCode}`);
  });

  it('runs in a cwd relative to the workspace root', async () => {
    const result = await s.call('bash', { command: 'cat file.txt; pwd', cwd: 'sub' });
    expect(result.structuredContent?.['stdout']).toBe(`inside\n${ws.at('sub')}\n`);
  });

  it.each([['..'], ['/tmp'], ['sub/../../']])('refuses cwd %s outside the workspace', async (cwd) => {
    const result = await s.call('bash', { command: 'pwd', cwd });
    expect(result).toMatchObject({ isError: true, code: 'OUTSIDE_WORKSPACE' });
    expect(textOf(result)).toContain(cwd.replace(/\/$/, ''));
  });

  it('kills the whole tree on timeout: TIMEOUT and no survivor', async () => {
    const m = marker();
    const result = await s.call('bash', { command: `sleep ${m} & sleep ${m}`, timeoutMs: 700 });
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(result.structuredContent).toMatchObject({ timedOut: true });
    expect(await survivorsOf(m)).toEqual([]);
  });

  it('cuts output beyond the cap with a note', async () => {
    const small = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox, limits: { maxProcessOutputChars: 50 } });
    const result = await small.call('bash', { command: 'seq 1 100' });
    expect((result.structuredContent?.['stdout'] as string).length).toBeLessThanOrEqual(50);
    expect(result.structuredContent?.['stdoutDropped']).toBeGreaterThan(0);
    expect(textOf(result)).toMatch(/truncated: \d+ more characters dropped/);
    await small.close();
  });
});

describe('child environment', () => {
  const secret = 'TW_E2E_SECRET_TOKEN';
  const host: Record<string, string> = { [secret]: 'hunter2', TW_E2E_OK_ONE: 'one', TW_E2E_OK_TWO: 'two', TW_E2E_OTHER: 'other' };
  beforeAll(() => Object.assign(process.env, host));
  afterAll(() => {
    for (const name of Object.keys(host)) delete process.env[name];
  });

  const printAll = `echo "[$${secret}][$TW_E2E_OK_ONE][$TW_E2E_OK_TWO][$TW_E2E_OTHER][$EXTRA]"`;
  it.each([
    ['nothing of the host beyond the base set by default', undefined, '[][][][][]'],
    ['a named variable from the allowlist', ['TW_E2E_OK_ONE'], '[][one][][][]'],
    ['a PREFIX_* pattern', ['TW_E2E_OK_*'], '[][one][two][][]'],
    ['an explicit map, and nothing else of the host', { EXTRA: 'x' }, '[][][][][x]'],
  ])('passes %s', async (_name, env, expected) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], ...(env === undefined ? {} : { env }) });
    const result = await s.call('bash', { command: printAll });
    expect(result.structuredContent?.['stdout']).toBe(`${expected}\n`);
    await s.close();
  });

  it('still gives PATH and HOME', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'] });
    const result = await s.call('bash', { command: 'test -n "$PATH" && test -n "$HOME" && echo ok' });
    expect(result.structuredContent?.['stdout']).toBe('ok\n');
    await s.close();
  });

  it('refuses a bare * in the allowlist when opening', async () => {
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], env: ['*'] })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

describe('charset', () => {
  it.each([
    ['in one write', "printf '\\326\\320\\316\\304'"],
    ['split across two chunks', "printf '\\326'; sleep 0.2; printf '\\320\\316\\304'"],
  ])('decodes GBK output to 中文 %s (exec)', async (_name, command) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], shellEncoding: 'gbk' });
    const result = await s.call('bash', { command });
    expect(result.structuredContent?.['stdout']).toBe('中文');
    await s.close();
  });

  it('decodes GBK in background logs, and stdin written as GBK round-trips through cat', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], shellEncoding: 'gbk' });
    const gbk = await s.call('bash', { action: 'start', command: "printf '\\326\\320'; sleep 0.1; printf '\\316\\304'" });
    expect(await logsUntil(s, gbk.structuredContent?.['processId'] as string, '文')).toBe('中文');
    const cat = await s.call('bash', { action: 'start', command: 'cat' });
    const processId = cat.structuredContent?.['processId'] as string;
    await s.call('bash', { action: 'write', processId, input: '汉字\n' });
    expect(await logsUntil(s, processId, '\n')).toBe('汉字\n');
    await s.close();
  });

  it('refuses an encoding iconv-lite does not know', async () => {
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], shellEncoding: 'no-such-charset' })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});

