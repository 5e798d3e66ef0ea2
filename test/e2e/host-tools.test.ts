import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type AuditEvent, type Runtime, type Session, type SessionOptions } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { OVERRUN_GRACE_MS } from '../../runtime/calls/overrun-watch.js';

const TOOLS = 'test/fixtures/tools/basic-tools.mjs';
const EXTRA = 'test/fixtures/tools/extra-tools.mjs';
const KEPT = 'test/fixtures/tools/kept-context.mjs';

let rt: Runtime;
let ws: TempTree;
const audit: AuditEvent[] = [];
const sessions: Session[] = [];

beforeAll(async () => {
  rt = await createRuntime({ toolModules: [TOOLS], idleWorkers: 1, audit: (event) => audit.push(event) });
  ws = makeTempTree('tw-host', { 'notes/a.txt': 'hello host tools\n', '.git/hooks/pre-commit': '#!/bin/sh\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

async function open(tools: string[], options: SessionOptions = {}): Promise<Session> {
  const session = await rt.openSession({ workspaceRoot: ws.root, tools, ...options });
  sessions.push(session);
  return session;
}

describe('registration and listing', () => {
  it('shows a host tool only when the session names it', async () => {
    const none = await open([]);
    expect(await none.listTools()).toEqual([]);
    expect((await none.call('noop')).code).toBe('TOOL_NOT_ALLOWED');
    const one = await open(['shout']);
    expect((await one.listTools()).map((t) => t.name)).toEqual(['shout']);
    expect(await one.call('fails')).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
  });

  it('lists JSON Schema for zod and JSON Schema inputs', async () => {
    const s = await open(['shout', 'read_any', 'read_file']);
    const byName = new Map((await s.listTools()).map((t) => [t.name, t]));
    expect(byName.get('shout')).toMatchObject({
      description: expect.stringContaining('Upper-cases'),
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, out: { type: 'string' } }, required: ['path', 'out'] },
    });
    expect(byName.get('read_any')?.inputSchema).toEqual({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false });
    expect(byName.get('read_file')?.inputSchema).toMatchObject({ type: 'object', required: ['path'] });
  });

  it('refuses an unknown host tool name when opening', async () => {
    await expect(open(['shuot'])).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("'shuot'") });
  });
});

describe('a ctx kept past its call', () => {
  it("is refused by the broker: it carries the finished call's grant, even for a part first touched later", async () => {
    const s = await open(['keep_context', 'use_kept_context'], { toolModules: [KEPT] });
    expect(textOf(await s.call('keep_context'))).toBe('kept');
    const later = await s.call('use_kept_context', { path: 'notes/a.txt' });
    expect(later).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(later)).toMatch(/BROKER_REFUSED/);
  });
});

describe('ctx.fs', () => {
  it('reads and writes inside the workspace', async () => {
    const s = await open(['shout']);
    const result = await s.call('shout', { path: 'notes/a.txt', out: 'notes/A.txt' });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ wrote: 'notes/A.txt', chars: 17, session: s.id });
    expect(fs.readFileSync(ws.at('notes/A.txt'), 'utf8')).toBe('HELLO HOST TOOLS\n');
  });

  it.each([
    ['a read outside the workspace', 'read_any', { path: '/etc/passwd' }, 'NOT_READABLE', undefined],
    ['a read that climbs out', 'read_any', { path: '../../../../etc/hostname' }, 'NOT_READABLE', undefined],
    ['a write outside the workspace', 'shout', { path: 'notes/a.txt', out: '../tw-host-escape.txt' }, 'OUTSIDE_WORKSPACE', '../tw-host-escape.txt'],
    ['a write into .git/hooks', 'shout', { path: 'notes/a.txt', out: '.git/hooks/post-checkout' }, 'BLOCKED_PATH', '.git/hooks/post-checkout'],
  ])('refuses %s as TOOL_FAILED naming the inner code', async (_name, tool, args, inner, written) => {
    const s = await open([tool]);
    const result = await s.call(tool, args);
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain(`[${inner}]`);
    if (written !== undefined) expect(fs.existsSync(ws.at(written))).toBe(false);
  });
});

describe('results and failures', () => {
  it.each([
    ['a wrong type', 'shout', { path: 1, out: 'x.txt' }, 'path'],
    ['a missing argument (zod)', 'shout', { path: 'notes/a.txt' }, 'out'],
    ['an extra argument (JSON Schema)', 'read_any', { path: 'notes/a.txt', extra: true }, 'additional'],
  ])('refuses %s with INVALID_ARGS before run', async (_name, tool, args, mentioned) => {
    const s = await open([tool]);
    const result = await s.call(tool, args);
    expect(result).toMatchObject({ isError: true, code: 'INVALID_ARGS' });
    expect(textOf(result)).toContain(mentioned);
    expect(fs.existsSync(ws.at('x.txt'))).toBe(false);
  });

  it('turns a thrown error into TOOL_FAILED with its message', async () => {
    const s = await open(['fails', 'noop']);
    const result = await s.call('fails');
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain('boom from a tool');
    expect(textOf(await s.call('noop'))).toBe('ok');
  });

  it('ends a hanging tool with TIMEOUT and replaces the worker', async () => {
    const s = await open(['hang', 'noop', 'worker_mark'], { limits: { toolTimeoutMs: 400 } });
    const before = textOf(await s.call('worker_mark'));
    expect(await s.call('hang')).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(await s.call('noop')).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    expect(textOf(await s.call('worker_mark'))).not.toBe(before);
  });

  it('lets a tool that stops on ctx.signal end with TIMEOUT and keep its worker', async () => {
    const s = await open(['patient', 'worker_mark'], { limits: { toolTimeoutMs: 1000 } });
    const before = textOf(await s.call('worker_mark'));
    const result = await s.call('patient');
    expect(result).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(textOf(result)).toContain('gave up');
    expect(textOf(await s.call('worker_mark'))).toBe(before);
  });

  it("an aborted call reaches the host tool's ctx.signal in its worker: the tool stops and the worker is kept", async () => {
    const s = await open(['patient', 'worker_mark'], { limits: { toolTimeoutMs: 60_000 } });
    const before = textOf(await s.call('worker_mark'));
    const controller = new AbortController();
    const pending = s.call('patient', {}, { signal: controller.signal });
    // The worker takes its messages in order: once a later call has answered, the tool is running.
    expect(textOf(await s.call('worker_mark'))).toBe(before);
    controller.abort();
    expect(await pending).toMatchObject({ isError: true, code: 'ABORTED' });
    // Without the cancel the tool would wait on, its worker would be stopped once the overrun grace passed.
    await new Promise((resolve) => setTimeout(resolve, OVERRUN_GRACE_MS + 300));
    expect(textOf(await s.call('worker_mark'))).toBe(before);
  });

  it('reports a tool that exits its worker as WORKER_CRASHED, and the next call works', async () => {
    const s = await open(['crash', 'noop']);
    const crashed = await s.call('crash');
    expect(crashed).toMatchObject({ isError: true, code: 'WORKER_CRASHED' });
    expect(textOf(crashed)).toContain('crash tool: exiting on purpose');
    expect(textOf(await s.call('noop'))).toBe('ok');
  });

  it('reports running out of heap as WORKER_CRASHED, other sessions unaffected', async () => {
    const bystander = await open(['shout']);
    const s = await open(['oom', 'noop'], { limits: { workerHeapMb: 32 } });
    const [oom, other] = await Promise.all([s.call('oom'), bystander.call('shout', { path: 'notes/a.txt', out: 'notes/oom-bystander.txt' })]);
    expect(oom).toMatchObject({ isError: true, code: 'WORKER_CRASHED' });
    expect(textOf(oom)).toMatch(/memory/);
    expect(other.isError).toBeUndefined();
    expect(textOf(await s.call('noop'))).toBe('ok');
    expect(rt.sessionCount).toBeGreaterThan(0);
  });
});

describe('import restrictions', () => {
  let s: Session;
  beforeAll(async () => {
    s = await open(['reach_out', 'reach', 'reach_internals']);
  });

  const REFUSED: [specifier: string, via: 'import' | 'cjs', instead: string][] = [
    ['node:fs', 'import', 'ctx.fs'],
    ['fs', 'import', 'ctx.fs'],
    ['node:fs/promises', 'import', 'ctx.fs'],
    ['fs/promises', 'import', 'ctx.fs'],
    ['node:child_process', 'import', 'ctx.exec'],
    ['child_process', 'import', 'ctx.exec'],
    ['node:net', 'import', 'ctx.fetch'],
    ['node:http', 'import', 'ctx.fetch'],
    ['node:https', 'import', 'ctx.fetch'],
    ['node:http2', 'import', 'ctx.fetch'],
    ['node:tls', 'import', 'ctx.fetch'],
    ['node:dgram', 'import', 'ctx.fetch'],
    ['node:dns', 'import', 'ctx.fetch'],
    ['node:worker_threads', 'import', 'worker'],
    ['node:cluster', 'import', 'worker'],
    ['node:vm', 'import', 'code generation'],
    ['node:module', 'import', 'static imports'],
    ['node:inspector', 'import', 'inspector'],
    ['node:wasi', 'import', 'WASI'],
    ['./addon/fake.node', 'import', 'native addons'],
    ['tw-fs-user', 'import', 'ctx.fs'],
    ['fs', 'cjs', 'ctx.fs'],
    ['node:fs', 'cjs', 'ctx.fs'],
    ['child_process', 'cjs', 'ctx.exec'],
    ['./addon/fake.node', 'cjs', 'native addons'],
    ['./addon/fake', 'cjs', 'native addons'],
  ];

  it.each(REFUSED)('refuses %s (%s) naming what to use instead, and nothing is done', async (specifier, via, instead) => {
    const marker = ws.at(`marker-${via}-${specifier.replace(/\W/g, '_')}`);
    const result = await s.call('reach_out', { specifier, marker, via });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain('refused in a toolwarden worker');
    expect(textOf(result)).toContain(instead);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('still allows harmless built-ins and packages', async () => {
    for (const specifier of ['node:path', 'node:crypto', 'zod']) {
      expect(textOf(await s.call('reach_out', { specifier, marker: ws.at('unused') }))).toBe('imported');
    }
  });

  it('removes process.binding, dlopen, getBuiltinModule and the global fetch', async () => {
    expect((await s.call('reach')).structuredContent).toEqual({ binding: 'undefined', dlopen: 'undefined', getBuiltinModule: 'undefined', fetch: 'undefined' });
  });

  it.each(['workers/walk/read-text-file.js', 'runtime/broker/broker.js', 'src/tool-result.js'])("refuses toolwarden's own files (%s) to host code", async (file) => {
    const result = await s.call('reach_internals', { file });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain("use the 'toolwarden' entry");
  });

  it.each(['runtime/index.js', 'src/tool-api.js'])("maps toolwarden's entry and toolwarden/tool (%s) to the light tool API", async (file) => {
    expect(textOf(await s.call('reach_internals', { file }))).toBe('ERROR_CODES,ToolwardenError,defineTool,isDefinedTool');
  });

  it("refuses toolwarden's own files to require() as well", async () => {
    const marker = ws.at('marker-cjs-internals');
    const result = await s.call('reach_out', { specifier: '../../../dist/workers/walk/read-text-file.js', marker, via: 'cjs' });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain("use the 'toolwarden' entry");
  });
});

describe('bad modules', () => {
  it.each([
    ['a syntax error', 'bad/syntax-error.mjs', 'syntax-error.mjs'],
    ['a module that throws at import', 'bad/throws-at-import.mjs', 'refuses to load'],
    ['a module that exports no tool', 'bad/no-tools.mjs', 'exports no tool'],
    ['a tool shadowing a built-in', 'bad/shadows-builtin.mjs', "'read_file'"],
    ['a static import of node:fs', 'bad/imports-fs.mjs', 'ctx.fs'],
    ['a missing module', 'bad/missing.mjs', 'missing.mjs'],
  ])('createRuntime rejects %s with INVALID_OPTIONS naming it', async (_name, file, mentioned) => {
    const attempt = createRuntime({ idleWorkers: 0, toolModules: [`test/fixtures/tools/${file}`] });
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining(mentioned) });
    await expect(attempt).rejects.toMatchObject({ message: expect.stringMatching(/syntax-error|throws-at-import|no-tools|shadows-builtin|imports-fs|missing/) });
  });
});

describe('a module that never finishes loading', () => {
  it('fails createRuntime after moduleLoadTimeoutMs instead of hanging', async () => {
    const attempt = createRuntime({ idleWorkers: 0, moduleLoadTimeoutMs: 500, toolModules: ['test/fixtures/tools/bad/hangs-at-import.mjs'] });
    await expect(attempt).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('timed out') });
  });
});

describe('per-session modules', () => {
  it("loads a session's own toolModules for that session only", async () => {
    const s = await open(['whoami', 'noop'], { toolModules: [EXTRA], user: 'carol' });
    expect((await s.listTools()).map((t) => t.name)).toEqual(['whoami', 'noop']);
    expect((await s.call('whoami')).structuredContent).toEqual({ id: s.id, user: 'carol' });
    await expect(open(['whoami'])).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('refuses a bad per-session module when opening, naming it', async () => {
    await expect(open(['noop'], { toolModules: ['test/fixtures/tools/bad/no-tools.mjs'] })).rejects.toMatchObject({
      code: 'INVALID_OPTIONS',
      message: expect.stringContaining('no-tools.mjs'),
    });
  });
});

describe('ctx services', () => {
  it("ctx.exec needs 'bash' in the session's tools", async () => {
    const s = await open(['run_command']);
    const result = await s.call('run_command', { command: 'echo hi' });
    expect(result).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(result)).toContain('TOOL_NOT_ALLOWED');
  });

  it('ctx.exec runs allowed commands and goes through the bash checks', async () => {
    const s = await open(['run_command', 'bash'], { sandbox: 'off' });
    expect((await s.call('run_command', { command: 'echo hi' })).structuredContent).toEqual({ stdout: 'hi\n', exitCode: 0 });
    const refused = await s.call('run_command', { command: 'cat /etc/passwd' });
    expect(refused).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(refused)).toMatch(/\[(NOT_READABLE|POLICY_DENIED|COMMAND_REFUSED)\]/);
    expect(textOf(refused)).not.toContain('root:');
  });

  it('ctx.session and ctx.fs are read-only', async () => {
    const s = await open(['tamper_session'], { user: 'dave' });
    expect((await s.call('tamper_session')).structuredContent).toEqual({ refused: ['user', 'workspaceRoot', 'readFile'], user: 'dave', workspaceRoot: ws.root });
  });

  it('ctx.log reaches the audit callback', async () => {
    const s = await open(['log_it']);
    await s.call('log_it', { message: 'note from a host tool' });
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'ctx.log', result: 'note from a host tool' }));
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'log_it', decision: 'allow' }));
  });

  it('applies permission rules to host tools by name', async () => {
    const s = await open(['shout', 'noop'], { permissions: { shout: 'deny' } });
    const result = await s.call('shout', { path: 'notes/a.txt', out: 'notes/denied.txt' });
    expect(result).toMatchObject({ isError: true, code: 'POLICY_DENIED' });
    expect(fs.existsSync(ws.at('notes/denied.txt'))).toBe(false);
    expect(textOf(await s.call('noop'))).toBe('ok');
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'shout', decision: 'deny' }));
  });

  it('checks each ctx.fs request against the rules of the file tool it stands for, and audits it', async () => {
    const s = await open(['shout'], { permissions: { write_file: { deny: ['notes/locked/**'] } } });
    const refused = await s.call('shout', { path: 'notes/a.txt', out: 'notes/locked/out.txt' });
    expect(refused).toMatchObject({ isError: true, code: 'TOOL_FAILED' });
    expect(textOf(refused)).toContain('POLICY_DENIED');
    expect(fs.existsSync(ws.at('notes/locked/out.txt'))).toBe(false);
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'ctx:write_file', decision: 'deny' }));
    expect(audit).toContainEqual(expect.objectContaining({ sessionId: s.id, tool: 'ctx:read_file', decision: 'allow' }));
    const allowed = await s.call('shout', { path: 'notes/a.txt', out: 'notes/open.txt' });
    expect(allowed.isError).toBeUndefined();
    expect(fs.readFileSync(ws.at('notes/open.txt'), 'utf8')).toBe('HELLO HOST TOOLS\n');
  });
});
