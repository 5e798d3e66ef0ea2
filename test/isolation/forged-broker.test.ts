import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type AuditEvent, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { FORMAT_ON_MAIN_MAX_BYTES } from '../../runtime/calls/call-plan.js';

// Build first: the runtime starts dist/workers/process-host.js.
const FORGE = 'test/isolation/fixtures/forge-tools.mjs';

let rt: Runtime;
let ws: TempTree;
let session: Session;
const events: AuditEvent[] = [];

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 0, sandbox: 'off', allowSharedPidNamespace: true, audit: (event) => events.push(event) });
  // big.txt is past FORMAT_ON_MAIN_MAX_BYTES, so read_file goes to the tool host, where the forger sees its call id.
  ws = makeTempTree('tw-forge', { 'a.txt': 'alpha\n', 'big.txt': `alpha\n${'x'.repeat(FORMAT_ON_MAIN_MAX_BYTES)}\n`, 'secret/s.txt': 'TOP SECRET\n' });
  session = await rt.openSession({
    workspaceRoot: ws.root,
    tools: ['read_file', 'write_file', 'forge_broker', 'forge_ready'],
    toolModules: [FORGE],
    isolation: 'process',
    permissions: { read_file: { deny: ['secret/**'] }, write_file: { deny: ['secret/**'] } },
  });
  // The module (and its listener) loads in the background after the bind.
  expect(textOf(await session.call('forge_ready'))).toBe('ready');
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

/** Runs the forger, and beside it the victim call until the forger has seen one in flight. */
async function forgeDuring(victim: 'read_file' | 'write_file', args: Record<string, unknown>): Promise<{ replies: Record<string, unknown>; victims: string[] }> {
  let done = false;
  const forging = session.call('forge_broker', { victim }).finally(() => (done = true));
  const victims: string[] = [];
  while (!done) {
    const result = await session.call(victim, args);
    victims.push(textOf(result));
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const result = await forging;
  expect(result.isError, textOf(result)).toBeUndefined();
  return { replies: (result.structuredContent as { replies: Record<string, unknown> }).replies, victims };
}

describe("isolation: 'process': tool code forging broker requests while an allowed call is in flight", () => {
  it.each([
    ['read_file', { path: 'big.txt', limit: 1 }],
    ['write_file', { path: 'out.txt', content: 'ok\n' }],
  ] as const)('gets nothing under the id of an in-flight %s call, nor under its own', async (victim, args) => {
    events.length = 0;
    const { replies, victims } = await forgeDuring(victim, args);
    // The legitimate calls kept working.
    expect(victims.length).toBeGreaterThan(0);
    for (const text of victims) expect(text).toMatch(victim === 'read_file' ? /alpha/ : /out\.txt/);
    const names = Object.keys(replies);
    expect(names).toEqual(expect.arrayContaining(['read a denied path under the read_file id', 'a built-in read under its own host tool id', 'an unknown method', 'a request with no id', 'a made-up id']));
    for (const name of names) {
      const reply = replies[name] as { code?: string; error?: { code?: string } };
      expect(reply.code ?? reply.error?.code, name).toBe('BROKER_REFUSED');
    }
    expect(JSON.stringify(replies)).not.toContain('TOP SECRET');
    expect(fs.existsSync(ws.at('secret/w.txt'))).toBe(false);
    // Every forgery is in the audit, refused with the code; the comlink message too (it has no seq to answer).
    const refused = events.filter((event) => event.code === 'BROKER_REFUSED');
    expect(refused.length).toBe(names.length + 1);
    for (const event of refused) expect(event).toMatchObject({ decision: 'deny', rule: 'call capability', sessionId: session.id });
  });
});

describe('a call id dies with its call', () => {
  it.each(['worker', 'process'] as const)("a ctx kept past the end of its call is refused (isolation: '%s')", async (isolation) => {
    const lingering = await rt.openSession({ workspaceRoot: ws.root, tools: ['linger', 'linger_result'], toolModules: [FORGE], isolation });
    try {
      expect(textOf(await lingering.call('linger'))).toBe('returned');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(textOf(await lingering.call('linger_result'))).toBe('BROKER_REFUSED');
      expect(events.some((event) => event.sessionId === lingering.id && event.code === 'BROKER_REFUSED' && event.tool === 'broker:ctxFs')).toBe(true);
    } finally {
      await lingering.close();
    }
  });
});
