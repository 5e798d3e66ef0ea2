import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeConfig } from '../../src/serve/serve-config.js';
import { startHttpServer } from '../../runtime/serve/http/serve-http.js';
import { serveStdio } from '../../runtime/serve/serve-stdio.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
const TOKEN = 'bob-token-0123456789abcdef';

let home: TempTree;
beforeAll(() => {
  home = makeTempTree('tw-serve-bounds', { 'alice/secret.txt': 'alice\n', 'bob/a.txt': 'bob\n', 'bob/sub/b.txt': 'b\n', 'file.txt': 'not a dir\n' });
  fs.symlinkSync('/', home.at('to-root'));
  fs.symlinkSync(home.at('bob'), home.at('bob-link'));
  home.write({ 'serve.json': JSON.stringify({ tenants: { bob: { workspaceRoot: 'bob', tools: ['read_file'] }, alice: { workspaceRoot: 'alice' } }, sandbox: 'off' }) });
});
afterAll(() => home.cleanup());

const config = (tenants: Record<string, unknown>) => parseServeConfig({ tenants, tokens: { [TOKEN]: 'bob' }, sandbox: 'off' }, home.root);

describe('serve --http checks every tenant root before it starts', () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a missing workspace', { bob: { workspaceRoot: 'missing' } }, /tenants\.bob\.workspaceRoot '.*missing' does not exist/],
    ['a file as workspace', { bob: { workspaceRoot: 'file.txt' } }, /tenants\.bob\.workspaceRoot '.*file\.txt' is not a directory/],
    ['/ as workspace', { bob: { workspaceRoot: '/' } }, /tenants\.bob\.workspaceRoot '\/' is the filesystem root/],
    ['a symlink to / as workspace', { bob: { workspaceRoot: 'to-root' } }, /tenants\.bob\.workspaceRoot '.*to-root' is the filesystem root \(canonically '\/'\)/],
    ['a bad workspace of a tenant without a token', { bob: { workspaceRoot: 'bob' }, eve: { workspaceRoot: '/' } }, /tenants\.eve\.workspaceRoot '\/'/],
    ['/ as a read root', { bob: { workspaceRoot: 'bob', readRoots: ['alice', '/'] } }, /tenants\.bob\.readRoots\[1\] '\/' is the filesystem root/],
    ['a missing read root', { bob: { workspaceRoot: 'bob', readRoots: ['gone'] } }, /tenants\.bob\.readRoots\[0\] '.*gone' does not exist/],
  ])('refuses %s, naming the tenant and the field', async (_name, tenants, message) => {
    const error = await startHttpServer({ config: config(tenants), port: 0, log: () => undefined }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_OPTIONS' });
    expect((error as Error).message).toMatch(message);
  });

  it('starts with a workspace spelled through a symlink (canonically a directory of its own)', async () => {
    const server = await startHttpServer({ config: config({ bob: { workspaceRoot: 'bob-link', readRoots: ['alice'] } }), port: 0, log: () => undefined });
    await server.close();
  });
});

describe('the config file tenant field allowOutsideWorkspace', () => {
  it('is a boolean, default false', () => {
    expect(config({ bob: { workspaceRoot: 'bob', allowOutsideWorkspace: true } }).tenants['bob']).toMatchObject({ allowOutsideWorkspace: true });
    expect(() => config({ bob: { workspaceRoot: 'bob', allowOutsideWorkspace: 'yes' } })).toThrow(/tenants\.bob\.allowOutsideWorkspace must be a boolean/);
  });

  it('lets a session of that user ask for outside access, and only that user', async () => {
    const cfg = config({ bob: { workspaceRoot: 'bob', allowOutsideWorkspace: true }, alice: { workspaceRoot: 'alice' } });
    const served = await serveStdio({ session: { user: 'bob', allowOutsideWorkspace: true }, config: cfg, log: () => undefined });
    await served.close();
    await expect(serveStdio({ session: { user: 'alice', allowOutsideWorkspace: true }, config: cfg, log: () => undefined })).rejects.toMatchObject({ code: 'ESCALATION', message: expect.stringMatching(/allowOutsideWorkspace/) });
  });
});

describe('serve --user (stdio) holds the session to the tenant', () => {
  it.each([
    ['/', '/'],
    ["alice's workspace", 'alice'],
  ])('refuses --workspace %s for bob with ESCALATION', async (_name, workspace) => {
    const workspaceRoot = workspace === '/' ? '/' : home.at(workspace);
    const error = await serveStdio({ session: { user: 'bob', workspaceRoot }, config: config({ bob: { workspaceRoot: 'bob' }, alice: { workspaceRoot: 'alice' } }), log: () => undefined }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ESCALATION' });
    expect((error as Error).message).toMatch(/user 'bob' asked for workspaceRoot '.*' outside the tenant's workspaceRoot '.*\/bob'/);
  });

  it('exits non-zero from the CLI for `serve --user bob --workspace /`, naming the field', async () => {
    const run = await execa(process.execPath, [MAIN, 'serve', '--user', 'bob', '--workspace', '/', '--config', home.at('serve.json')], { reject: false, input: '' });
    expect(run.exitCode).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/ESCALATION/);
    expect(run.stderr).toMatch(/workspaceRoot '\/' outside the tenant's workspaceRoot/);
  });

  it('serves a subdirectory of the tenant workspace (the near miss)', async () => {
    const served = await serveStdio({ session: { user: 'bob', workspaceRoot: home.at('bob/sub') }, config: config({ bob: { workspaceRoot: 'bob' } }), log: () => undefined });
    await served.close();
  });
});
