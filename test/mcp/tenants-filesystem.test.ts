import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import type { SessionOptions } from '../../runtime/session/session-options.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Real trees: alice's and bob's workspaces side by side, bob's shared docs, and links out of bob's workspace.
let home: TempTree;
let rt: Runtime;
let other: Runtime;

beforeAll(async () => {
  home = makeTempTree('tw-tenant-fs', {
    'alice/secret.txt': 'alice secret\n',
    'bob/src/a.txt': 'bob a\n',
    'bob/src/deep/b.txt': 'bob b\n',
    'docs/guide.md': 'guide\n',
    'docs/sub/x.md': 'x\n',
    'bobby/x.txt': 'prefix sibling\n',
  });
  fs.symlinkSync(home.at('alice'), home.at('bob/to-alice'));
  fs.symlinkSync(home.at('bob/src'), home.at('bob/to-src'));
  fs.symlinkSync(home.at('bob'), home.at('bob-link'));
  fs.symlinkSync('/', home.at('bob/to-root'));
  const tenants = {
    alice: { workspaceRoot: home.at('alice'), tools: ['read_file'] },
    // bob's tenant workspace is spelled through a symlink: both spellings of it are bob's.
    bob: { workspaceRoot: home.at('bob-link'), readRoots: [home.at('docs')], tools: ['read_file', 'list_dir'] },
    carol: { workspaceRoot: home.at('bob'), allowOutsideWorkspace: true, tools: ['read_file'] },
  };
  const key = 'k'.repeat(32);
  rt = await createRuntime({ idleWorkers: 0, tenants, key });
  // A runtime sharing the key whose tenants bound nothing: what it mints must not open wider in `rt`.
  other = await createRuntime({ idleWorkers: 0, tenants: { bob: { allowOutsideWorkspace: true } }, key });
});

afterAll(async () => {
  await Promise.all([rt?.close(), other?.close()]);
  home.cleanup();
});

const open = (options: SessionOptions) => rt.openSession(options);
const at = (relative: string): string => home.at(relative);

describe('a tenant bounds its user: a session may narrow workspace, read roots and outside access, never widen', () => {
  it.each<[string, () => SessionOptions, RegExp]>([
    ["another tenant's workspace", () => ({ user: 'bob', workspaceRoot: at('alice') }), /workspaceRoot '.*\/alice' outside the tenant's workspaceRoot '.*\/bob'/],
    ['the filesystem root', () => ({ user: 'bob', workspaceRoot: '/' }), /workspaceRoot '\/' outside the tenant's workspaceRoot/],
    ['the parent of the workspace', () => ({ user: 'bob', workspaceRoot: home.root }), /workspaceRoot/],
    ['a name sharing the prefix', () => ({ user: 'bob', workspaceRoot: at('bobby') }), /workspaceRoot '.*\/bobby' outside/],
    ['a symlink inside the workspace to another tenant', () => ({ user: 'bob', workspaceRoot: at('bob/to-alice') }), /workspaceRoot '.*\/alice' outside/],
    ['a symlink inside the workspace to /', () => ({ user: 'bob', workspaceRoot: at('bob/to-root') }), /workspaceRoot '\/' outside/],
    ['a dot-dot spelling out', () => ({ user: 'bob', workspaceRoot: `${at('bob/src')}/../../alice` }), /workspaceRoot '.*\/alice' outside/],
    ["another tenant's workspace as a read root", () => ({ user: 'bob', readRoots: [at('alice')] }), /readRoots\[0\] '.*\/alice' outside the tenant's workspaceRoot and readRoots \(.*\/bob, .*\/docs\)/],
    ['/ as a read root', () => ({ user: 'bob', readRoots: [at('docs'), '/'] }), /readRoots\[1\] '\/' outside/],
    ['a read root through a link to another tenant', () => ({ user: 'bob', readRoots: [at('bob/to-alice')] }), /readRoots\[0\] '.*\/alice' outside/],
    ['a read root above the tenant read root', () => ({ user: 'bob', readRoots: [home.root] }), /readRoots\[0\]/],
    ['outside access the tenant does not grant', () => ({ user: 'bob', allowOutsideWorkspace: true }), /allowOutsideWorkspace: true beyond the tenant's allowOutsideWorkspace \(false\)/],
    ['a read root beside the workspace of a tenant without read roots', () => ({ user: 'alice', readRoots: [at('docs')] }), /readRoots\[0\] '.*\/docs' outside the tenant's workspaceRoot and readRoots \(.*\/alice\)/],
  ])('refuses %s with ESCALATION naming the field and the bound', async (_name, options, message) => {
    const error = await open(options()).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ESCALATION' });
    expect((error as Error).message).toMatch(message);
    await expect(rt.mintToken(options())).rejects.toMatchObject({ code: 'ESCALATION' });
    expect(rt.sessionCount).toBe(0);
  });

  it.each<[string, () => SessionOptions, () => Record<string, unknown>]>([
    ['the default: the tenant workspace (canonical) and read roots', () => ({ user: 'bob' }), () => ({ workspaceRoot: at('bob'), readRoots: [at('docs')], allowOutsideWorkspace: false })],
    ['the workspace spelled through the tenant link', () => ({ user: 'bob', workspaceRoot: at('bob-link') }), () => ({ workspaceRoot: at('bob') })],
    ['the workspace spelled canonically', () => ({ user: 'bob', workspaceRoot: at('bob') }), () => ({ workspaceRoot: at('bob') })],
    ['a subdirectory', () => ({ user: 'bob', workspaceRoot: at('bob/src/deep') }), () => ({ workspaceRoot: at('bob/src/deep') })],
    ['a subdirectory through a link that stays inside', () => ({ user: 'bob', workspaceRoot: at('bob/to-src') }), () => ({ workspaceRoot: at('bob/src') })],
    ['fewer read roots', () => ({ user: 'bob', readRoots: [] }), () => ({ readRoots: [] })],
    ['a read root inside a tenant read root', () => ({ user: 'bob', readRoots: [at('docs/sub')] }), () => ({ readRoots: [at('docs/sub')] })],
    ['a read root inside the tenant workspace', () => ({ user: 'bob', workspaceRoot: at('bob/src/deep'), readRoots: [at('bob/src')] }), () => ({ readRoots: [at('bob/src')] })],
    ['outside access the tenant grants', () => ({ user: 'carol', allowOutsideWorkspace: true }), () => ({ allowOutsideWorkspace: true })],
    ['no outside access where the tenant grants it', () => ({ user: 'carol' }), () => ({ allowOutsideWorkspace: false })],
  ])('allows %s', async (_name, options, expected) => {
    const session = await open(options());
    try {
      expect(session.capability).toMatchObject(expected());
    } finally {
      await session.close();
    }
    const fromToken = await open({ token: await rt.mintToken(options()) });
    await fromToken.close();
  });

  it("keeps a narrowed session inside its narrowed workspace: alice's file stays unreadable", async () => {
    const session = await open({ user: 'bob', workspaceRoot: at('bob/src') });
    try {
      const ok = await session.call('read_file', { path: 'a.txt' });
      expect(ok.isError).toBeFalsy();
      expect(ok.content[0]?.text).toContain('bob a');
      expect(await session.call('read_file', { path: at('alice/secret.txt') })).toMatchObject({ isError: true, code: 'NOT_READABLE' });
    } finally {
      await session.close();
    }
  });

  it.each<[string, SessionOptions, RegExp]>([
    ['a workspace outside the tenant', { user: 'bob', workspaceRoot: '/' }, /workspaceRoot '\/' outside/],
    ['a read root outside the tenant', { user: 'bob', workspaceRoot: '/tmp', readRoots: ['/'] }, /workspaceRoot|readRoots/],
    ['outside access', { user: 'bob', workspaceRoot: '/tmp', allowOutsideWorkspace: true }, /workspaceRoot|allowOutsideWorkspace/],
    ['a tool beyond the tenant', { user: 'bob', workspaceRoot: '/tmp', tools: ['bash'] }, /workspaceRoot|bash/],
  ])('refuses a token minted elsewhere for %s', async (_name, options, message) => {
    const token = await other.mintToken(options);
    const error = await open({ token }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ESCALATION' });
    expect((error as Error).message).toMatch(message);
  });

  it('opens a token minted elsewhere that stays within the tenant', async () => {
    const session = await open({ token: await other.mintToken({ user: 'bob', workspaceRoot: at('bob/src'), readRoots: [at('docs')], tools: ['read_file'] }) });
    await session.close();
  });

  it('refuses a tenant workspace that does not exist, naming the tenant field', async () => {
    const broken = await createRuntime({ idleWorkers: 0, tenants: { dan: { workspaceRoot: at('missing') } } });
    try {
      await expect(broken.openSession({ user: 'dan', workspaceRoot: at('bob') })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/tenants\.dan\.workspaceRoot '.*missing' does not exist/) });
    } finally {
      await broken.close();
    }
  });

  it('refuses a non-boolean allowOutsideWorkspace in a tenant', async () => {
    await expect(createRuntime({ tenants: { dan: { allowOutsideWorkspace: 'yes' as unknown as boolean } } })).rejects.toMatchObject({ code: 'INVALID_OPTIONS', message: expect.stringMatching(/tenants\.dan\.allowOutsideWorkspace must be a boolean/) });
  });
});
