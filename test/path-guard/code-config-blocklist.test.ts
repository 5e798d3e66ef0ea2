import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_BLOCKLIST, describeBlockedEntry, findBlockedEntry } from '../../src/path-guard/index.js';
import { blockedEntryName } from '../../src/path-guard/blocklist-option.js';
import { topLevelStubs } from '../../src/sandbox/blocked-changes.js';

const ROOT = '/ws';

// Files that tools read on their own and that make them run code (issue 29 item 6), each at the top, in a nested
// project and under a home directory kept in the workspace: every tool here reads the file in whatever folder it
// runs in or opens (several walk up the parents too), so a subfolder is as much a trap as the root.
const BLOCKED: readonly string[] = [
  // package managers
  '.npmrc', 'packages/app/.npmrc', 'home/u/.npmrc', '.NPMRC',
  '.yarnrc', '.yarnrc.yml', 'web/.yarnrc.yml', '.pnpmfile.cjs', 'pkgs/a/.pnpmfile.cjs',
  'bunfig.toml', '.bunfig.toml', 'svc/bunfig.toml',
  'pip.conf', 'venv/pip.conf', 'home/u/.pip/pip.conf', 'home/u/.config/pip/pip.conf', 'pip.ini',
  '.cargo/config.toml', '.cargo/config', 'crates/x/.cargo/config.toml', '.cargo/bin/cargo-evil',
  '.bundle/config', 'app/.bundle/config',
  // agents and editors
  '.cursor/mcp.json', '.cursor/hooks.json', '.cursor/rules/x.mdc', 'sub/.cursor/mcp.json',
  '.gemini/settings.json', '.gemini/commands/x.toml',
  '.continue/config.yaml', '.continue/mcpServers/x.yaml', '.continuerc.json',
  '.clinerules', '.clinerules/hooks/PreToolUse', '.cline/hooks/TaskStart',
  '.windsurf/hooks.json', '.windsurf/rules/x.md', 'home/u/.codeium/windsurf/mcp_config.json',
  '.zed/settings.json', '.zed/tasks.json',
  '.roo/mcp.json', '.kiro/settings/mcp.json', '.kiro/hooks/x.kiro.hook', '.codex/config.toml', '.amazonq/mcp.json',
  'opencode.json', 'opencode.jsonc', '.opencode/plugin/x.ts',
  '.aider.conf.yml', 'lib/.aider.conf.yml',
  '.github/hooks/hooks.json', 'sub/.github/hooks/x.json',
  '.devcontainer/devcontainer.json', '.devcontainer.json',
  '.idea/workspace.xml', '.vscode/mcp.json', '.mcp.json', '.claude/settings.json',
  // shells, direnv, REPLs
  '.bash_aliases', '.kshrc', '.mkshrc', '.cshrc', '.tcshrc', '.login', '.logout',
  'home/u/.config/fish/config.fish', '.config/fish/conf.d/x.fish', '.config/fish/functions/ls.fish',
  '.envrc', 'sub/.envrc', '.direnvrc', '.config/direnv/direnvrc', '.config/direnv/lib/x.sh', '.config/direnv/direnv.toml',
  '.irbrc', 'app/.irbrc', '.pryrc',
  // git's
  '.gitconfig', '.config/git/config', 'home/u/.config/git/credentials',
];

// Names beside those that run nothing: examples, documentation, prompt files and what installers write.
const ALLOWED: readonly string[] = [
  'npmrc.md', 'docs/.npmrc.example', '.npmrc.bak', 'npmrc', 'docs/npmrc.md',
  '.yarn/releases/yarn-4.cjs', '.yarn/cache/x.zip', '.pnp.cjs', 'yarn.lock', '.yarnrc.yml.orig',
  'pnpm-lock.yaml', 'pnpmfile.cjs', 'bunfig.toml.example', 'bun.lockb',
  'pip.conf.sample', 'requirements.txt', 'pyproject.toml',
  'Cargo.toml', 'Cargo.lock', 'cargo/config.toml', '.cargo-ok', '.bundle-backup/config', '.bundle/README', 'Gemfile',
  '.cursorrules', '.cursorignore', 'cursor/mcp.json', '.cursor-notes/mcp.json',
  'GEMINI.md', '.geminiignore', 'AGENTS.md', 'CLAUDE.md', '.continueignore', '.clineignore', '.windsurfrules',
  '.zed-notes', 'opencode.md', 'aider.conf.yml', '.aider.chat.history.md',
  '.github/workflows/ci.yml', '.github/hooks-notes', 'github/hooks/x.json', '.devcontainer-old/x',
  '.bash_history', '.config/fishy', '.config/gitx/config', 'config/git/config', '.config/direnvx',
  '.irbrc.example', 'irbrc', '.env', '.env.local', 'src/index.ts',
];

describe('DEFAULT_BLOCKLIST: files that run code later (issue 29 item 6)', () => {
  it.each(BLOCKED)('%s is blocked', (p) => {
    expect(findBlockedEntry(path.posix.join(ROOT, p), ROOT, path.posix, DEFAULT_BLOCKLIST, 'other')).toBeDefined();
  });

  it.each(ALLOWED)('%s stays writable', (p) => {
    expect(findBlockedEntry(path.posix.join(ROOT, p), ROOT, path.posix, DEFAULT_BLOCKLIST, 'other')).toBeUndefined();
  });

  it('gives each entry a reason that names what runs, and every entry one name', () => {
    const names = DEFAULT_BLOCKLIST.map(blockedEntryName);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of DEFAULT_BLOCKLIST) {
      expect(entry.why.length, blockedEntryName(entry)).toBeGreaterThan(20);
      expect(describeBlockedEntry(entry)).toContain(entry.why);
    }
  });

  it('puts no empty directory where a program reads a file (an entry with stub: false)', () => {
    const stubs = topLevelStubs(ROOT, () => false, () => true).map((p) => p.slice(ROOT.length + 1));
    for (const file of ['.npmrc', '.yarnrc.yml', '.pnpmfile.cjs', 'bunfig.toml', 'opencode.json', '.aider.conf.yml', '.devcontainer.json', '.continuerc.json', '.irbrc']) {
      expect(stubs, file).not.toContain(file);
    }
    for (const dir of ['.cursor', '.gemini', '.zed', '.cargo', '.vscode', '.ssh']) expect(stubs, dir).toContain(dir);
    const withParents = topLevelStubs(ROOT, (p) => p === `${ROOT}/.bundle` || p === `${ROOT}/.github`, () => true).map((p) => p.slice(ROOT.length + 1));
    expect(withParents).toContain('.github/hooks');
    expect(withParents).not.toContain('.bundle/config');
  });
});

// The documentation's table is the list's own rendering: a row per entry, written from DEFAULT_BLOCKLIST.
describe('the documentation (docs/paths.md)', () => {
  it('lists every entry of DEFAULT_BLOCKLIST with its reason', () => {
    const doc = fs.readFileSync(new URL('../../docs/paths.md', import.meta.url), 'utf8');
    for (const entry of DEFAULT_BLOCKLIST) expect(doc).toContain(`| \`${blockedEntryName(entry)}\` | ${entry.why} |`);
  });
});
