import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Host git (safe.bareRepository at its default) takes sub/ with HEAD, objects and refs for a repository and runs its
// config (core.fsmonitor) and hooks. The file tools must neither write those into such a directory nor complete the
// layout beside them; the sandbox walk covers shell commands (test/e2e/sandbox-blocklist.test.ts).
const FSMONITOR = '[core]\n\tfsmonitor = touch /tmp/pwned\n';
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
  ws = makeTempTree('tw-bare', {
    'bare/HEAD': 'ref: refs/heads/main\n',
    'bare/objects/info/packs': '',
    'bare/refs/heads/main': '',
    'half/HEAD': 'ref: refs/heads/main\n',
    'half/objects/info/packs': '',
    'half/config': FSMONITOR,
    'src/a.ts': 'export const a = 1;\n',
  });
  s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'edit_file', 'apply_patch'] });
});

const patchOf = (...files: [string, string][]): string => ['*** Begin Patch', ...files.flatMap(([p, line]) => [`*** Add File: ${p}`, `+${line}`]), '*** End Patch'].join('\n');

describe('file tools and embedded bare repositories', () => {
  it.each([
    ['config into a complete layout', 'bare/config'],
    ['a hook into a complete layout', 'bare/hooks/post-checkout'],
    ['the refs that complete a layout beside a config', 'half/refs/heads/main'],
    ['a commondir beside HEAD (git then reads config from where it points)', 'half/commondir'],
  ])('write_file refuses %s', async (_name, target) => {
    const result = await s.call('write_file', { path: target, content: FSMONITOR });
    expect(result).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(fs.existsSync(ws.at(target))).toBe(false);
    expect(fs.existsSync(ws.at('half/refs'))).toBe(false);
  });

  it('apply_patch refuses a patch that builds the whole layout with its config, and changes nothing', async () => {
    const patch = patchOf(['src/b.ts', 'x'], ['fresh/HEAD', 'ref: refs/heads/main'], ['fresh/objects/info/packs', ''], ['fresh/refs/heads/main', ''], ['fresh/config', '[core]']);
    expect(await s.call('apply_patch', { patch })).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(fs.existsSync(ws.at('fresh'))).toBe(false);
    expect(fs.existsSync(ws.at('src/b.ts'))).toBe(false);
  });

  it.each([
    ['a file beside HEAD, objects and a config, no refs', 'half/description'],
    ['a config where there is no layout', 'src/config'],
    ['an ordinary file in a complete layout', 'bare/description'],
    ['objects inside an existing repository', 'bare/objects/info/alternates'],
  ])('near miss: write_file allows %s', async (_name, target) => {
    expect((await s.call('write_file', { path: target, content: 'x\n' })).isError).toBeUndefined();
    expect(fs.readFileSync(ws.at(target), 'utf8')).toBe('x\n');
  });

  // Each alone passes: half/ lacks refs when config is checked, and has no config yet when the refs are. The broker
  // holds such writes to one at a time, so one of two racing calls (one session or two) is refused, in any order.
  it.each([
    ['one session', 1],
    ['two sessions of the workspace', 2],
  ])('two racing calls cannot complete a layout beside a config between them (%s)', async (_name, sessions) => {
    const other = sessions === 1 ? s : await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'apply_patch'] });
    for (let round = 0; round < 5; round += 1) {
      fs.rmSync(ws.at('racy'), { recursive: true, force: true });
      fs.mkdirSync(ws.at('racy/objects'), { recursive: true });
      fs.writeFileSync(ws.at('racy/HEAD'), 'ref: refs/heads/main\n');
      const calls = [s.call('write_file', { path: 'racy/config', content: FSMONITOR }), other.call('apply_patch', { patch: patchOf(['racy/refs/heads/main', '']) })];
      const results = await Promise.all(round % 2 === 0 ? calls : calls.reverse());
      expect(results.filter((r) => r.isError).map((r) => r.code)).toEqual(['BLOCKED_PATH']);
      expect(fs.existsSync(ws.at('racy/config')) && fs.existsSync(ws.at('racy/refs'))).toBe(false);
    }
  });

  // Attacker pass: below a .git is not the .git itself, and a child rooted below its parent's root has no host's root.
  it.each(['y/.git/inner', 'x/.GIT/inner'])('write_file cannot build a repository with its config at %s', async (dir) => {
    const codes = [];
    for (const [file, content] of [['HEAD', 'ref: refs/heads/main\n'], ['objects/info/packs', ''], ['refs/heads/main', ''], ['config', FSMONITOR]]) {
      codes.push((await s.call('write_file', { path: `${dir}/${file}`, content })).code ?? 'ok');
    }
    expect(codes).toEqual(['ok', 'ok', 'ok', 'BLOCKED_PATH']);
    expect(fs.existsSync(ws.at(`${dir}/config`))).toBe(false);
  });

  it("a child rooted at a directory of its parent's workspace cannot make that directory a repository with a config", async () => {
    fs.mkdirSync(ws.at('kid'));
    const child = await s.attenuate({ workspaceRoot: ws.at('kid') });
    const codes = [];
    for (const [file, content] of [['HEAD', 'ref: refs/heads/main\n'], ['objects/info/packs', ''], ['refs/heads/main', ''], ['config', FSMONITOR]]) {
      codes.push((await child.call('write_file', { path: file, content })).code ?? 'ok');
    }
    expect(codes).toEqual(['ok', 'ok', 'ok', 'BLOCKED_PATH']);
    expect(fs.existsSync(ws.at('kid/config'))).toBe(false);
    await child.close();
  });

  it('near miss: apply_patch may build a layout without anything git runs', async () => {
    const patch = patchOf(['fresh/HEAD', 'ref: refs/heads/main'], ['fresh/objects/info/packs', ''], ['fresh/refs/heads/main', ''], ['fresh/description', 'x']);
    expect((await s.call('apply_patch', { patch })).isError).toBeUndefined();
    expect(fs.existsSync(ws.at('fresh/HEAD'))).toBe(true);
  });
});
