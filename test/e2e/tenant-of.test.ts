import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let rt: Runtime;
let ws: TempTree;
const asked: string[] = [];

beforeAll(async () => {
  ws = makeTempTree('tw-tenant-of', { 'a.txt': 'a\n' });
  rt = await createRuntime({
    idleWorkers: 0,
    tenantOf: (user) => {
      asked.push(user);
      return user === 'erin' ? { tools: ['read_file'], workspaceRoot: ws.root, maxSessions: 1 } : undefined;
    },
  });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe('tenantOf(user) decides what each user may ever have', () => {
  it("gives a user with no explicit list their allowance, in their tenant's workspace", async () => {
    const s = await rt.openSession({ user: 'erin' });
    expect(s.capability).toMatchObject({ tools: ['read_file'], workspaceRoot: ws.root, user: 'erin' });
    await expect(rt.openSession({ user: 'erin' })).rejects.toMatchObject({ code: 'SESSION_LIMIT' });
    await s.close();
    expect(asked).toContain('erin');
  });

  it.each([
    ['a tool beyond the allowance', { user: 'erin', tools: ['write_file'] }, 'ESCALATION'],
    ['an unknown user', { user: 'mallory', workspaceRoot: '.' }, 'ESCALATION'],
  ])('refuses %s', async (_name, options, code) => {
    await expect(rt.openSession(options)).rejects.toMatchObject({ code });
  });

  it('refuses tenants and tenantOf together', async () => {
    await expect(createRuntime({ tenants: {}, tenantOf: () => undefined })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });
});
