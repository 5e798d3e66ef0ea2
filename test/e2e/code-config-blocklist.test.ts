import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { DRIVER_USERS, giveToNobody, runSandboxed, type DriverResult } from '../helpers/run-sandboxed.js';
import { DEFAULT_BLOCKLIST } from '../../src/path-guard/blocklist.js';
import { blockedEntryName } from '../../src/path-guard/blocklist-option.js';

// Issue 29 item 6: per-tool configuration that runs code at the host's next command (npm's node-options, Cursor's
// MCP servers, ...) was written without asking while .mcp.json and .vscode/ were refused. Through the real write
// paths: the file tools, the static shell check (sandbox off) and the sandbox's check after a command.
const BLOCKED = [
  '.npmrc', 'packages/app/.npmrc', '.yarnrc.yml', 'web/.yarnrc', '.pnpmfile.cjs', 'bunfig.toml', 'venv/pip.conf',
  '.cargo/config.toml', 'app/.bundle/config', '.cursor/mcp.json', 'sub/.cursor/hooks.json', '.gemini/settings.json',
  '.continue/mcpServers/x.yaml', '.clinerules/hooks/PreToolUse', '.windsurf/hooks.json', '.zed/settings.json',
  '.roo/mcp.json', '.kiro/settings/mcp.json', '.codex/config.toml', '.amazonq/mcp.json', 'opencode.json',
  '.aider.conf.yml', '.github/hooks/h.json', '.devcontainer.json', '.devcontainer/devcontainer.json',
  '.config/fish/config.fish', '.config/git/config', '.direnvrc', '.irbrc', '.bash_aliases',
];
const NEAR_MISSES = ['npmrc.md', 'docs/.npmrc.example', '.cursorrules', '.github/workflows/ci.yml', 'Cargo.toml', 'yarn.lock', 'GEMINI.md'];

let rt: Runtime;
let ws: TempTree;
beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-codecfg', { 'a.txt': 'a\n' });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe('the file tools', () => {
  it.each(BLOCKED)('write_file refuses %s', async (p) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'apply_patch'] });
    const result = await s.call('write_file', { path: p, content: 'node-options=--require ./evil.js\n' });
    expect(result, textOf(result)).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    const patch = await s.call('apply_patch', { patch: ['*** Begin Patch', '*** Add File: ok.txt', '+x', `*** Add File: ${p}`, '+evil', '*** End Patch'].join('\n') });
    expect(patch).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(fs.existsSync(ws.at(p))).toBe(false);
    expect(fs.existsSync(ws.at('ok.txt'))).toBe(false);
    await s.close();
  });

  it.each(NEAR_MISSES)('write_file writes %s', async (p) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file'] });
    expect((await s.call('write_file', { path: p, content: 'x\n' })).isError).toBeUndefined();
    expect(fs.readFileSync(ws.at(p), 'utf8')).toBe('x\n');
    await s.close();
  });
});

// Every entry of the table, as the file itself (a nested repository's for the nested entries), through write_file and
// a shell redirect: the list is the one source, so each of its rows is refused on both paths.
const EVERY_ENTRY = DEFAULT_BLOCKLIST.map((entry) => [blockedEntryName(entry), `${entry.depth === 'nested' ? 'sub/' : 'deep/'}${entry.segments.map((s) => (s === '**' ? 'm' : s)).join('/')}`] as const);

describe('every entry of DEFAULT_BLOCKLIST', () => {
  it.each(EVERY_ENTRY)('%s (%s) is refused by write_file and by a redirect', async (_name, p) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['write_file', 'bash'], sandbox: 'off' });
    expect(await s.call('write_file', { path: p, content: 'x\n' })).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(await s.call('bash', { command: `echo x > '${p}'` })).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    expect(fs.existsSync(ws.at(p))).toBe(false);
    await s.close();
  });
});

describe('the static shell check (no sandbox)', () => {
  it.each([
    ['a redirect into .npmrc', 'echo node-options=--require=./evil.js > .npmrc'],
    ['an append to a nested .yarnrc.yml', 'echo "yarnPath: ./evil.cjs" >> web/.yarnrc.yml'],
    ['tee into .cursor/mcp.json', 'echo {} | tee .cursor/mcp.json'],
    ['a copy onto .gemini/settings.json', 'cp a.txt .gemini/settings.json'],
    ['a redirect into .github/hooks', 'echo {} > .github/hooks/h.json'],
  ])('refuses %s', async (_name, command) => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off' });
    expect(await s.call('bash', { command })).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    await s.close();
  });

  it('allows writing the near misses', async () => {
    const s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off' });
    const result = await s.call('bash', { command: 'mkdir -p docs2 && echo x > npmrc2.md && echo x > docs2/.npmrc.example && echo x > .cursorrules2' });
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(fs.existsSync(ws.at('docs2/.npmrc.example'))).toBe(true);
    await s.close();
  });
});

// From a script (`sh plant.sh`), which the static check does not read: the sandbox is what stops it. A directory
// entry at the top is covered by an empty read-only stub, so nothing is created there; a file entry gets no stub
// (an empty directory named .yarnrc.yml breaks yarn) and is found after the command and removed.
const PLANTS: [name: string, script: string, gone: string, written: boolean][] = [
  ['a top-level .npmrc', 'echo node-options=--require=./evil.js > .npmrc', '.npmrc', true],
  ['a nested .yarnrc.yml', 'mkdir -p web && echo "yarnPath: ./evil.cjs" > web/.yarnrc.yml', 'web/.yarnrc.yml', true],
  ['a top-level .cursor/mcp.json (kept from being created)', 'mkdir -p .cursor; echo {} > .cursor/mcp.json', '.cursor', false],
  ['a nested .cursor/mcp.json', 'mkdir -p sub/.cursor && echo {} > sub/.cursor/mcp.json', 'sub/.cursor', true],
  ['a top-level bunfig.toml', 'echo \'preload = ["./evil.ts"]\' > bunfig.toml', 'bunfig.toml', true],
];

describe.each(DRIVER_USERS)('the sandbox, as %s', (user) => {
  let tree: TempTree;
  let results: DriverResult[];
  beforeAll(async () => {
    tree = makeTempTree('tw-codecfg-sbx', { 'a.txt': 'a\n' });
    PLANTS.forEach(([, script], i) => tree.write({ [`plant-${i}.sh`]: `${script}\n` }));
    if (user === 'nobody') giveToNobody(tree.root);
    // The last command looks, inside the sandbox, at where a stub would be: yarn and npm read these in place.
    results = await runSandboxed(user, tree.root, [...PLANTS.map((_p, i) => `sh plant-${i}.sh`), 'for f in .yarnrc.yml .npmrc bunfig.toml; do test -e $f && echo "$f exists"; done; echo checked']);
  }, 120_000);
  afterAll(() => tree.cleanup());

  it.each(PLANTS.map((row, i) => [...row, i] as const))('%s: refused or removed', (_name, _script, gone, written, i) => {
    const r = results[i];
    expect(fs.existsSync(tree.at(gone)), `${gone} after: ${r?.text}`).toBe(false);
    if (written) {
      expect(r?.code, r?.text).toBe('BLOCKED_PATH_WRITTEN');
      expect(JSON.stringify(r?.blocked)).toContain(gone);
    } else expect(r?.code ?? null, r?.text).not.toBe('BLOCKED_PATH_WRITTEN');
  });

  it('puts no empty directory where a package manager reads its file', () => {
    const last = results.at(-1);
    expect(last?.stdout, last?.text).toBe('checked\n');
  });
});
