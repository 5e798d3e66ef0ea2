import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, effectiveBlocklist, type Runtime } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let rt: Runtime;
let ws: TempTree;
beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-blocked', { 'a.txt': 'a\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

const write = (s: Awaited<ReturnType<Runtime['openSession']>>, p: string) => s.call('write_file', { path: p, content: 'x' });

describe('blockedPaths (issue 11 item 6)', () => {
  it('relaxes a default entry for one session and keeps it for the others', async () => {
    const relaxed = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'], blockedPaths: { remove: ['.vscode'] } });
    const strict = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'] });
    expect((await write(strict, '.vscode/tasks.json')).code).toBe('BLOCKED_PATH');
    expect((await write(relaxed, '.vscode/settings.json')).isError).toBeUndefined();
    expect(fs.existsSync(ws.at('.vscode/settings.json'))).toBe(true);
    expect((await write(relaxed, '.idea/workspace.xml')).code).toBe('BLOCKED_PATH');
    await Promise.all([relaxed.close(), strict.close()]);
  });

  it('extends the list for file tools and for the static shell check', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'bash'], sandbox: 'off', blockedPaths: { add: ['.npmrc'] } });
    expect((await write(s, '.npmrc')).code).toBe('BLOCKED_PATH');
    expect((await write(s, 'pkg/.npmrc')).code).toBe('BLOCKED_PATH');
    const shell = await s.call('bash', { command: 'echo registry=evil > .npmrc' });
    expect(shell).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(fs.existsSync(ws.at('.npmrc'))).toBe(false);
    expect((await write(s, 'npmrc.txt')).isError).toBeUndefined();
    await s.close();
  });

  it('refuses an unknown entry name, and a blockedPaths option beside a token', async () => {
    await expect(rt.openSession({ workspaceRoot: ws.root, blockedPaths: { remove: ['.vscodee'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining("did you mean '.vscode'") });
    const token = await rt.mintToken({ workspaceRoot: ws.root });
    await expect(rt.openSession({ token, blockedPaths: { add: ['x'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
  });

  it('carries the list in the token', async () => {
    const token = await rt.mintToken({ workspaceRoot: ws.root, tools: ['write_file'], blockedPaths: { add: ['deploy.sh'] } });
    const s = await rt.openSession({ token });
    expect(effectiveBlocklist(s.capability).some((e) => e.segments.join('/') === 'deploy.sh')).toBe(true);
    expect((await write(s, 'deploy.sh')).code).toBe('BLOCKED_PATH');
    await s.close();
  });

  it('lets a child add entries but never remove one its parent has', async () => {
    const parent = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'], blockedPaths: { remove: ['.vscode'], add: ['.npmrc'] } });
    await expect(parent.attenuate({ blockedPaths: { remove: ['.npmrc'] } })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ blockedPaths: { remove: ['.ssh'] } })).rejects.toMatchObject({ code: 'ESCALATION' });
    await expect(parent.attenuate({ blockedPaths: { remove: ['.vscode'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    const child = await parent.attenuate({ blockedPaths: { add: ['.vscode'] } });
    expect((await write(child, '.vscode/launch.json')).code).toBe('BLOCKED_PATH');
    expect((await write(child, '.npmrc')).code).toBe('BLOCKED_PATH');
    await parent.close();
  });

  it("applies the runtime's option to every session, which a session may edit further", async () => {
    const local = await createRuntime({ idleWorkers: 0, blockedPaths: { remove: ['.idea'], add: ['Makefile'] } });
    try {
      const s = await local.openSession({ workspaceRoot: ws.root, tools: ['write_file'] });
      expect((await write(s, '.idea/x.xml')).isError).toBeUndefined();
      expect((await write(s, 'Makefile')).code).toBe('BLOCKED_PATH');
      const edited = await local.openSession({ workspaceRoot: ws.root, tools: ['write_file'], blockedPaths: { remove: ['Makefile'] } });
      expect((await write(edited, 'Makefile')).isError).toBeUndefined();
      await expect(local.openSession({ workspaceRoot: ws.root, blockedPaths: { remove: ['.idea'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS' });
    } finally {
      await local.close();
    }
    await expect(createRuntime({ blockedPaths: { remove: ['.vscod'] } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringContaining('createRuntime blockedPaths') });
  });
});
