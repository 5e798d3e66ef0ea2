import { afterAll, describe, expect, it } from 'vitest';
import { createBroker } from '../../runtime/broker/broker.js';
import { CallTracker } from '../../runtime/broker/call-tracker.js';
import { SessionPaths } from '../../runtime/broker/session-paths.js';
import { WriteQuota } from '../../runtime/broker/write-quota.js';
import { WalkPool } from '../../runtime/walk/index.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { okResult } from '../../src/tool-result.js';
import type { Capability } from '../../src/capability/capability.js';
import { makeTempTree } from '../helpers/temp-workspace.js';

const ws = makeTempTree('tw-broker', { 'a.txt': 'alpha\n' });
const walk = new WalkPool({ maxThreads: 1 });
afterAll(async () => {
  await walk.close();
  ws.cleanup();
});

const capability: Capability = {
  sid: 's1', tools: ['read_file', 'write_file', 'my_tool'], workspaceRoot: ws.root, readRoots: [], allowOutsideWorkspace: false,
  excludedPaths: ['.git'], mcpServers: [], limits: DEFAULT_LIMITS, permissions: [], sandbox: 'off', net: false, env: [],
  toolModules: [], isolation: 'worker',
};

function setUp(): { broker: ReturnType<typeof createBroker>; calls: CallTracker; admitted: string[] } {
  const calls = new CallTracker((name) => name === 'my_tool');
  const admitted: string[] = [];
  const broker = createBroker({
    paths: new SessionPaths(capability),
    quota: new WriteQuota(0),
    limits: DEFAULT_LIMITS,
    walk,
    calls,
    bash: async () => okResult('ran'),
    fetch: async () => okResult('fetched'),
    mcp: async () => okResult('called'),
    admitCtx: async (tool) => {
      admitted.push(tool);
      return tool === 'write_file' ? { decision: 'deny', rule: 'test rule', refusal: { content: [{ type: 'text', text: 'POLICY_DENIED: no' }], isError: true, code: 'POLICY_DENIED' } } : { decision: 'allow' };
    },
    auditCtx: () => undefined,
    log: () => undefined,
  });
  return { broker, calls, admitted };
}

describe('the broker answers only what an admitted call needs', () => {
  it.each([
    ['readFile', (b: ReturnType<typeof createBroker>) => b.readFile('a.txt')],
    ['readFileStrict', (b: ReturnType<typeof createBroker>) => b.readFileStrict('a.txt')],
    ['writeFile', (b: ReturnType<typeof createBroker>) => b.writeFile('b.txt', 'x')],
    ['listDir', (b: ReturnType<typeof createBroker>) => b.listDir(undefined)],
    ['glob', (b: ReturnType<typeof createBroker>) => b.glob('*', undefined)],
    ['grep', (b: ReturnType<typeof createBroker>) => b.grep({ pattern: 'a' })],
    ['applyChanges', (b: ReturnType<typeof createBroker>) => b.applyChanges([])],
  ])('refuses %s when no call of a tool that needs it is in flight', async (_op, request) => {
    const { broker } = setUp();
    expect(await request(broker)).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_ALLOWED' } });
  });

  it('serves a read during an admitted read_file call, and not a write', async () => {
    const { broker, calls } = setUp();
    const leave = calls.enter('read_file');
    expect(await broker.readFileStrict('a.txt')).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    expect(await broker.writeFile('b.txt', 'x')).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_ALLOWED' } });
    leave();
    expect(await broker.readFileStrict('a.txt')).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_ALLOWED' } });
  });

  it('refuses bash outside an admitted bash call', async () => {
    const { broker, calls } = setUp();
    expect(await broker.bash({ command: 'true' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    const leave = calls.enter('bash');
    expect(await broker.bash({ command: 'true' })).toMatchObject({ content: [{ text: 'ran' }] });
    leave();
  });
});

describe("ctx requests are served only during a host tool call, through the rules", () => {
  it('refuses ctx requests when no host tool call is in flight, even during a built-in call', async () => {
    const { broker, calls } = setUp();
    const leave = calls.enter('read_file');
    expect(await broker.ctxFs('readFile', { path: 'a.txt' })).toMatchObject({ ok: false, error: { code: 'TOOL_NOT_ALLOWED' } });
    expect(await broker.ctxMcp('mcp__x__y', {})).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    expect(await broker.ctxFetch({ url: 'http://x' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    expect(await broker.ctxExec({ command: 'true' })).toMatchObject({ isError: true, code: 'TOOL_NOT_ALLOWED' });
    leave();
  });

  it('applies the rules of the built-in tool each ctx request stands for', async () => {
    const { broker, calls, admitted } = setUp();
    const leave = calls.enter('my_tool');
    expect(await broker.ctxFs('readFile', { path: 'a.txt' })).toMatchObject({ ok: true, value: { text: 'alpha\n' } });
    expect(await broker.ctxFs('writeFile', { path: 'b.txt', content: 'x' })).toMatchObject({ ok: false, error: { code: 'POLICY_DENIED' } });
    expect(await broker.ctxMcp('mcp__x__y', {})).toMatchObject({ content: [{ text: 'called' }] });
    expect(await broker.ctxFs('nope' as never, {})).toMatchObject({ ok: false, error: { code: 'INVALID_ARGS' } });
    expect(admitted).toEqual(['read_file', 'write_file', 'mcp__x__y']);
    leave();
  });
});
