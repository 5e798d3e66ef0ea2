import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

const TOOLS = ['read_file', 'write_file', 'edit_file', 'apply_patch', 'list_dir', 'glob', 'grep'];
let rt: Runtime;
let ws: TempTree;
let s: Session;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
});
afterAll(async () => {
  await rt.close();
});
beforeEach(async () => {
  ws?.cleanup();
  ws = makeTempTree('tw-files', {
    'src/a.ts': 'export const a = 1;\nexport const b = 2;\n',
    'src/b.ts': 'const x = 1;\nconst x2 = 1;\n',
    'docs/long.txt': Array.from({ length: 500 }, (_, i) => `line ${i + 1} ${'.'.repeat(40)}`).join('\n'),
    '.gitignore': 'dist/\n',
    '.git/config': '[core]\n',
    'node_modules/pkg/index.js': 'const a = 1;\n',
  });
  fs.writeFileSync(ws.at('bin.dat'), Buffer.from([0, 1, 2, 3, 0, 255]));
  s = await rt.openSession({ workspaceRoot: ws.root, tools: TOOLS, limits: { readMaxChars: 2_000, maxResults: 5, toolTimeoutMs: 5_000 } });
});

describe('read_file', () => {
  it('numbers lines and reads a window with offset and limit', async () => {
    const result = await s.call('read_file', { path: 'src/a.ts', offset: 2, limit: 1 });
    expect(textOf(result)).toContain('2\texport const b = 2;');
    expect(textOf(result)).not.toContain('export const a');
  });

  it('truncates at readMaxChars and says how to read on', async () => {
    const result = await s.call('read_file', { path: 'docs/long.txt' });
    expect(result.structuredContent).toMatchObject({ truncated: true, totalLines: 500 });
    const next = (result.structuredContent as { nextOffset: number }).nextOffset;
    expect(textOf(result)).toContain(`offset ${next}`);
    expect(textOf(await s.call('read_file', { path: 'docs/long.txt', offset: next, limit: 1 }))).toContain(`line ${next} `);
  });

  it.each([
    ['a binary file', { path: 'bin.dat' }, 'UNSUPPORTED_FILE'],
    ['a missing file', { path: 'nope.ts' }, 'NOT_FOUND'],
    ['a directory', { path: 'src' }, 'CONFLICT'],
    ['a path with a NUL byte', { path: 'src/a.ts\0' }, 'INVALID_ARGS'],
    ['a non-string path', { path: 42 }, 'INVALID_ARGS'],
    ['an unknown argument', { path: 'src/a.ts', mode: 'raw' }, 'INVALID_ARGS'],
  ])('refuses %s', async (_name, args, code) => {
    expect(await s.call('read_file', args)).toMatchObject({ isError: true, code });
  });
});

describe('write_file and edit_file', () => {
  it('creates a file and its missing directories', async () => {
    expect((await s.call('write_file', { path: 'new/deep/file.txt', content: 'hi' })).structuredContent).toMatchObject({ created: true, bytes: 2 });
    expect(fs.readFileSync(ws.at('new/deep/file.txt'), 'utf8')).toBe('hi');
  });

  it.each([
    ['.git is excluded', '.git/config', 'BLOCKED_PATH'],
    ['.git/hooks is blocked', '.git/hooks/pre-commit', 'BLOCKED_PATH'],
    ['.ssh is blocked at any depth', 'home/.ssh/authorized_keys', 'BLOCKED_PATH'],
    ['a climb out of the workspace', '../escape.txt', 'OUTSIDE_WORKSPACE'],
  ])('refuses a write where %s', async (_name, path, code) => {
    expect(await s.call('write_file', { path, content: 'x' })).toMatchObject({ isError: true, code });
    expect(fs.readFileSync(ws.at('.git/config'), 'utf8')).toBe('[core]\n');
  });

  it('lets .gitignore be written: it is not under .git', async () => {
    expect((await s.call('write_file', { path: '.gitignore', content: 'out/\n' })).isError).toBeUndefined();
  });

  it('replaces exactly one match, and refuses none or several', async () => {
    expect((await s.call('edit_file', { path: 'src/a.ts', old_string: 'a = 1', new_string: 'a = 10' })).isError).toBeUndefined();
    expect(fs.readFileSync(ws.at('src/a.ts'), 'utf8')).toContain('export const a = 10;');
    const none = await s.call('edit_file', { path: 'src/a.ts', old_string: 'zzz', new_string: 'y' });
    expect(none).toMatchObject({ isError: true, code: 'EDIT_MISMATCH' });
    const several = await s.call('edit_file', { path: 'src/b.ts', old_string: '= 1', new_string: '= 3' });
    expect(several).toMatchObject({ isError: true, code: 'EDIT_MISMATCH' });
    expect(textOf(several)).toMatch(/2/);
    expect((await s.call('edit_file', { path: 'src/b.ts', old_string: '= 1', new_string: '= 3', replace_all: true })).structuredContent).toMatchObject({ replacements: 2 });
  });
});

describe('apply_patch', () => {
  it('applies a multi-file patch', async () => {
    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@', '-export const b = 2;', '+export const b = 3;', '*** Add File: src/c.ts', '+export const c = 1;', '*** End Patch'].join('\n');
    expect((await s.call('apply_patch', { patch })).isError).toBeUndefined();
    expect(fs.readFileSync(ws.at('src/a.ts'), 'utf8')).toContain('b = 3');
    expect(fs.readFileSync(ws.at('src/c.ts'), 'utf8')).toBe('export const c = 1;\n');
  });

  it.each([
    ['one hunk does not match', ['*** Begin Patch', '*** Add File: src/d.ts', '+x', '*** Update File: src/a.ts', '@@', '-nothing like this', '+y', '*** End Patch'], 'EDIT_MISMATCH'],
    ['one path is blocked', ['*** Begin Patch', '*** Add File: src/d.ts', '+x', '*** Add File: .git/hooks/post-merge', '+evil', '*** End Patch'], 'BLOCKED_PATH'],
    ['one path is outside', ['*** Begin Patch', '*** Add File: src/d.ts', '+x', '*** Add File: ../outside.ts', '+evil', '*** End Patch'], 'OUTSIDE_WORKSPACE'],
  ])('changes nothing when %s', async (_name, lines, code) => {
    expect(await s.call('apply_patch', { patch: lines.join('\n') })).toMatchObject({ isError: true, code });
    expect(fs.existsSync(ws.at('src/d.ts'))).toBe(false);
    expect(fs.readFileSync(ws.at('src/a.ts'), 'utf8')).toBe('export const a = 1;\nexport const b = 2;\n');
  });
});

describe('list_dir, glob and grep', () => {
  it('lists a directory with kinds, and says when it cut the list', async () => {
    const root = await s.call('list_dir', {});
    expect(textOf(root)).toContain('docs/');
    expect(textOf(root)).not.toContain('src/');
    expect(root.structuredContent).toMatchObject({ truncated: true });
    expect(textOf(root)).toContain('[truncated');
    expect(textOf(await s.call('list_dir', { path: 'src' }))).toBe('a.ts\nb.ts');
  });

  it('globs and greps the workspace, skipping .git and node_modules', async () => {
    expect((await s.call('glob', { pattern: '**/*.ts' })).structuredContent).toMatchObject({ paths: ['src/a.ts', 'src/b.ts'] });
    const found = await s.call('grep', { pattern: 'CONST A', ignoreCase: true });
    expect(textOf(found)).toContain('src/a.ts:1:');
    expect(textOf(found)).not.toContain('node_modules');
  });

  it('ends a catastrophic regex with TIMEOUT and keeps working', async () => {
    fs.writeFileSync(ws.at('src/evil.txt'), `${'a'.repeat(40)}b\n`);
    const quick = await rt.openSession({ workspaceRoot: ws.root, tools: ['grep'], limits: { toolTimeoutMs: 800 } });
    expect(await quick.call('grep', { pattern: '(a+)+$' })).toMatchObject({ isError: true, code: 'TIMEOUT' });
    expect(textOf(await quick.call('grep', { pattern: 'const a' }))).toContain('src/a.ts');
    await quick.close();
  });
});

describe('a trailing slash names a directory', () => {
  it.each([
    ['read_file of a file spelled with a slash', 'read_file', { path: 'src/a.ts/' }, 'CONFLICT'],
    ['read_file of a file spelled with /.', 'read_file', { path: 'src/a.ts/.' }, 'CONFLICT'],
    ['read_file of a missing file spelled with a slash', 'read_file', { path: 'src/nope.ts/' }, 'NOT_FOUND'],
    ['read_file of a directory spelled with a slash', 'read_file', { path: 'src/' }, 'CONFLICT'],
    ['write_file to a path spelled with a slash', 'write_file', { path: 'src/new.ts/', content: 'x' }, 'CONFLICT'],
    ['write_file over a file spelled with a slash', 'write_file', { path: 'src/a.ts/', content: 'x' }, 'CONFLICT'],
    ['edit_file of a file spelled with a slash', 'edit_file', { path: 'src/a.ts/', old_string: 'a', new_string: 'b' }, 'CONFLICT'],
    ['list_dir of a file spelled with a slash', 'list_dir', { path: 'src/a.ts/' }, 'CONFLICT'],
  ])('%s is refused', async (_name, tool, args, code) => {
    const result = await s.call(tool, args);
    expect(result).toMatchObject({ isError: true, code });
    expect(fs.readFileSync(ws.at('src/a.ts'), 'utf8')).toBe('export const a = 1;\nexport const b = 2;\n');
    expect(fs.existsSync(ws.at('src/new.ts'))).toBe(false);
  });

  it('says the path names a directory but is a file', async () => {
    expect(textOf(await s.call('read_file', { path: 'src/a.ts/' }))).toMatch(/src\/a\.ts\/ ends in a slash, so it names a directory, but it is a file/);
  });

  it.each([
    ['list_dir of a directory with a slash', 'list_dir', { path: 'src/' }],
    ['read_file without the slash', 'read_file', { path: 'src/a.ts' }],
    ['write_file into a directory spelled with a doubled slash', 'write_file', { path: 'src//c.ts', content: 'c' }],
  ])('%s still works (the near miss)', async (_name, tool, args) => {
    expect((await s.call(tool, args)).isError).toBeUndefined();
  });
});

describe('grep pattern size', () => {
  it('refuses a 100,000-character pattern with INVALID_ARGS naming the limit', async () => {
    const result = await s.call('grep', { pattern: 'a'.repeat(100_000) });
    expect(result).toMatchObject({ isError: true, code: 'INVALID_ARGS' });
    expect(textOf(result)).toMatch(/100000 characters long, over the limit of 10000/);
    expect(textOf(result).length).toBeLessThan(400);
  });

  it('accepts a long pattern under the limit (the near miss)', async () => {
    expect((await s.call('grep', { pattern: `(?:${'x'.repeat(5_000)})|export` })).isError).toBeUndefined();
  });
});
