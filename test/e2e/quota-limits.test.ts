import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Resource governance through the public API: each refusal has its own code and a message naming the limit.
let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-quota', { 'a.txt': 'a\n' });
});
afterAll(() => ws.cleanup());

describe('sessions', () => {
  let rt: Runtime;
  afterAll(() => rt.close());

  it('refuses a session past maxSessions, and admits one after a close', async () => {
    rt = await createRuntime({ idleWorkers: 0, maxSessions: 2 });
    const a = await rt.openSession({ workspaceRoot: ws.root, tools: [] });
    await rt.openSession({ workspaceRoot: ws.root, tools: [] });
    const refused = rt.openSession({ workspaceRoot: ws.root, tools: [] });
    await expect(refused).rejects.toMatchObject({ code: 'SESSION_LIMIT', message: expect.stringContaining('maxSessions') });
    expect(rt.sessionCount).toBe(2);
    await a.close();
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: [] })).resolves.toBeDefined();
  });

  it.each([
    ['maxSessions', { maxSessions: 2 }],
    ['maxSessionsPerUser', { maxSessionsPerUser: 2 }],
  ])('holds %s when sessions are opened concurrently, admitting exactly the limit', async (_name, options) => {
    const own = await createRuntime({ idleWorkers: 0, ...options });
    const opened = await Promise.allSettled([1, 2, 3, 4].map(() => own.openSession({ workspaceRoot: ws.root, tools: [], user: 'ann' })));
    expect(opened.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    expect(opened.filter((o) => o.status === 'rejected').map((o) => (o.reason as { code: string }).code)).toEqual(['SESSION_LIMIT', 'SESSION_LIMIT']);
    expect(own.sessionCount).toBe(2);
    await own.close();
  });

  it('counts an attenuated child as a session', async () => {
    const own = await createRuntime({ idleWorkers: 0, maxSessions: 1 });
    const parent = await own.openSession({ workspaceRoot: ws.root, tools: ['read_file'] });
    await expect(parent.attenuate({ tools: [] })).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    await own.close();
  });

  it.each([
    ['maxSessionsPerUser', { maxSessionsPerUser: 1 }],
    ["a tenant's maxSessions", { tenants: { ann: { maxSessions: 1 } } }],
    ["a tenant's maxSessions over maxSessionsPerUser", { maxSessionsPerUser: 5, tenants: { ann: { maxSessions: 1 } } }],
  ])('refuses a second session of one user by %s; other users are not affected', async (_name, options) => {
    const own = await createRuntime({ idleWorkers: 0, ...options });
    try {
      await own.openSession({ workspaceRoot: ws.root, tools: [], user: 'ann' });
      await expect(own.openSession({ workspaceRoot: ws.root, tools: [], user: 'ann' })).rejects.toMatchObject({
        code: 'SESSION_LIMIT',
        message: expect.stringContaining("user 'ann'"),
      });
      if (!('tenants' in options)) await expect(own.openSession({ workspaceRoot: ws.root, tools: [], user: 'bob' })).resolves.toBeDefined();
    } finally {
      await own.close();
    }
  });

  it('counts a session opened from a token like any other', async () => {
    const own = await createRuntime({ idleWorkers: 0, maxSessionsPerUser: 1 });
    const token = await own.mintToken({ workspaceRoot: ws.root, tools: [], user: 'ann' });
    await own.openSession({ workspaceRoot: ws.root, tools: [], user: 'ann' });
    await expect(own.openSession({ token })).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    await own.close();
  });
});

describe('per-session limits', () => {
  let rt: Runtime;
  beforeAll(async () => {
    rt = await createRuntime({ idleWorkers: 1 });
  });
  afterAll(() => rt.close());

  it('refuses a call past limits.maxConcurrentCalls while one is in flight', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash', 'read_file'], limits: { maxConcurrentCalls: 1 } });
    const slow = s.call('bash', { command: 'sleep 0.5; echo slow' });
    const refused = await s.call('read_file', { path: 'a.txt' });
    expect(refused).toMatchObject({ isError: true, code: 'CALL_LIMIT' });
    expect(textOf(refused)).toContain('maxConcurrentCalls');
    expect((await slow).structuredContent?.['stdout']).toBe('slow\n');
    expect((await s.call('read_file', { path: 'a.txt' })).isError).toBeFalsy();
    await s.close();
  });

  it('refuses a write past limits.writeQuotaBytes and leaves the file unwritten', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'edit_file'], limits: { writeQuotaBytes: 10 } });
    expect((await s.call('write_file', { path: 'q1.txt', content: '12345678' })).isError).toBeFalsy();
    const refused = await s.call('write_file', { path: 'q2.txt', content: '12345678' });
    expect(refused).toMatchObject({ isError: true, code: 'WRITE_QUOTA_EXCEEDED' });
    expect(textOf(refused)).toContain('writeQuotaBytes=10');
    expect(fs.existsSync(ws.at('q2.txt'))).toBe(false);
    const edit = await s.call('edit_file', { path: 'q1.txt', old_string: '1234', new_string: '123456789' });
    expect(edit).toMatchObject({ isError: true, code: 'WRITE_QUOTA_EXCEEDED' });
    expect(fs.readFileSync(ws.at('q1.txt'), 'utf8')).toBe('12345678');
    await s.close();
  });

  it('counts writes per session: another session has its own quota', async () => {
    const a = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'], limits: { writeQuotaBytes: 4 } });
    const b = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'], limits: { writeQuotaBytes: 4 } });
    expect((await a.call('write_file', { path: 'qa.txt', content: 'aaaa' })).isError).toBeFalsy();
    expect((await b.call('write_file', { path: 'qb.txt', content: 'bbbb' })).isError).toBeFalsy();
    expect(await a.call('write_file', { path: 'qa2.txt', content: 'a' })).toMatchObject({ code: 'WRITE_QUOTA_EXCEEDED' });
    await Promise.all([a.close(), b.close()]);
  });

  it('refuses a background process past limits.maxProcesses', async () => {
    const s: Session = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], limits: { maxProcesses: 1 } });
    expect((await s.call('bash', { action: 'start', command: 'sleep 30' })).isError).toBeFalsy();
    const refused = await s.call('bash', { action: 'start', command: 'sleep 30' });
    expect(refused).toMatchObject({ isError: true, code: 'PROCESS_LIMIT' });
    expect(textOf(refused)).toContain('maxProcesses is 1');
    // exec is not a background process: it still runs.
    expect((await s.call('bash', { command: 'echo fine' })).structuredContent?.['stdout']).toBe('fine\n');
    await s.close();
  });

  it.each([
    ['a negative limit', { writeQuotaBytes: -1 }],
    ['a zero process cap', { maxProcesses: 0 }],
    ['an unknown limit', { maxWidgets: 3 }],
  ])('refuses %s when opening', async (_name, limits) => {
    await expect(rt.openSession({ workspaceRoot: ws.root, tools: [], limits: limits as never })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
