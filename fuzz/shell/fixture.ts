import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

/** The marker every outside file holds: seeing it in a command's output means the command read outside. */
export const CANARY = 'TWCANARY-7f3a91';

/** Where the parts of the hostile fixture live, all under one base directory. */
export interface FixtureLayout {
  base: string;
  /** The workspace: a git repository with links out, a `self -> .` link, a nested repository. */
  ws: string;
  /** A read root beside the workspace. */
  ro: string;
  /** The canary directory outside everything. */
  outside: string;
  /** The prefix twin of the workspace (`ws` vs `ws-evil`). */
  twin: string;
  /** HOME for the checker and the sandboxed shell; outside the workspace. */
  home: string;
}

/** The directories whose content must never change and whose files must never be read (ro may be read). */
export function guardedDirs(l: FixtureLayout): { dir: string; readable: boolean }[] {
  return [
    { dir: l.outside, readable: false },
    { dir: l.twin, readable: false },
    { dir: l.home, readable: false },
    { dir: l.ro, readable: true },
  ];
}

/** The layout under `base` (nothing is created). */
export function fixtureLayout(base: string): FixtureLayout {
  return {
    base,
    ws: path.join(base, 'ws'),
    ro: path.join(base, 'ro'),
    outside: path.join(base, 'outside'),
    twin: path.join(base, 'ws-evil'),
    home: path.join(base, 'home'),
  };
}

/**
 * Builds the hostile fixture under `base` (which must not exist): files the generator names, links that lead
 * out (absolute, relative, through `self -> .`), a nested repository whose config runs a script, a script
 * that reads and writes the canary, and canary files outside that hold {@link CANARY}.
 */
export function buildFixture(base: string): FixtureLayout {
  const l = fixtureLayout(base);
  const put = (file: string, text: string, mode = 0o644): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text, { mode });
  };
  const evil = path.join(l.ws, 'evil.sh');
  // Outside: the canary, a directory to list, hooks that a hooksPath could point to.
  put(path.join(l.outside, 'secret.txt'), `${CANARY} outside\n`);
  put(path.join(l.outside, 'dir', 'inner.txt'), `${CANARY} inner\n`);
  put(path.join(l.outside, 'hooks', 'pre-commit'), `#!/bin/sh\ncat ${l.outside}/secret.txt\n`, 0o755);
  put(path.join(l.twin, 'secret.txt'), `${CANARY} twin\n`);
  put(path.join(l.home, 'secret.txt'), `${CANARY} home\n`);
  put(path.join(l.ro, 'ref.txt'), 'reference\n');
  // The workspace.
  put(path.join(l.ws, 'a.txt'), 'alpha\nbeta\n');
  put(path.join(l.ws, 'b.txt'), 'beta\ngamma\n');
  put(path.join(l.ws, 'notes.md'), '# notes\nTODO one\n');
  put(path.join(l.ws, 'list.txt'), 'a.txt\nb.txt\n');
  put(path.join(l.ws, 'data.json'), '{"k":"v","n":[1,2]}\n');
  put(path.join(l.ws, 'pathfile.txt'), '../outside/secret.txt\n');
  put(path.join(l.ws, 'script.sed'), 'p\n');
  put(path.join(l.ws, 'prog.awk'), '{ print $1 }\n');
  put(path.join(l.ws, 'src', 'x.ts'), 'export const x = 1;\n');
  put(path.join(l.ws, 'src', 'deep', 'y.ts'), 'export const y = 2;\n');
  put(path.join(l.ws, 'sub', 'inner.txt'), 'inner\n');
  put(evil, `#!/bin/sh\ncat ${l.outside}/secret.txt\necho pwned > ${l.outside}/pwned-by-script\n`, 0o755);
  fs.symlinkSync(path.join(l.outside, 'secret.txt'), path.join(l.ws, 'link-out-file'));
  fs.symlinkSync(l.outside, path.join(l.ws, 'link-out-dir'));
  fs.symlinkSync('../outside', path.join(l.ws, 'rel-out'));
  fs.symlinkSync('.', path.join(l.ws, 'self'));
  fs.symlinkSync('src', path.join(l.ws, 'src-link'));
  const git = (cwd: string, ...args: string[]): void => {
    execFileSync('git', ['-c', 'user.name=fx', '-c', 'user.email=fx@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd, stdio: 'ignore', env: { PATH: '/usr/bin:/bin', HOME: l.home, GIT_CONFIG_NOSYSTEM: '1' } });
  };
  git(l.ws, 'init', '-q');
  git(l.ws, 'add', 'a.txt', 'b.txt', 'src');
  git(l.ws, 'commit', '-q', '-m', 'init');
  // Tracked but missing from the tree: a blocked editor config and a link out, which `git checkout -- .`,
  // `git restore`, `git stash`, `git reset --hard` would write back.
  put(path.join(l.ws, '.vscode', 'settings.json'), '{"terminal.integrated.shell.linux": "./evil.sh"}\n');
  fs.symlinkSync('../outside', path.join(l.ws, 'tracked-out'));
  git(l.ws, 'add', '-f', '.vscode/settings.json', 'tracked-out');
  git(l.ws, 'commit', '-q', '-m', 'tracked traps');
  fs.rmSync(path.join(l.ws, '.vscode'), { recursive: true });
  fs.rmSync(path.join(l.ws, 'tracked-out'));
  put(path.join(l.ws, 'nested', 'file.txt'), 'nested\n');
  git(path.join(l.ws, 'nested'), 'init', '-q');
  git(path.join(l.ws, 'nested'), 'add', 'file.txt');
  git(path.join(l.ws, 'nested'), 'commit', '-q', '-m', 'nested');
  // git's sample hooks only make every copy slower; the hooks directories stay.
  for (const repo of [l.ws, path.join(l.ws, 'nested')]) {
    const hooks = path.join(repo, '.git', 'hooks');
    for (const name of fs.readdirSync(hooks)) fs.rmSync(path.join(hooks, name));
  }
  // The trap a nested repository sets: any git command in it would run the script.
  fs.appendFileSync(path.join(l.ws, 'nested', '.git', 'config'), `[core]\n\tfsmonitor = ${evil}\n\thooksPath = ${l.outside}/hooks\n`);
  execFileSync('tar', ['-cf', path.join(l.ws, 'archive.tar'), '-C', l.ws, 'a.txt', 'sub'], { stdio: 'ignore' });
  buildHostileArchives(l);
  return l;
}

/**
 * Archives whose members attack extraction, in the workspace: `evil.tar` holds `lnout -> ../outside` then
 * `lnout/pwned` written through it, `.bashrc`, `.vscode/settings.json`, `../pwned-by-tar` and an absolute name in
 * the canary directory; `evil.zip` holds a link out and a `../` name.
 */
function buildHostileArchives(l: FixtureLayout): void {
  const stage = path.join(l.base, '.stage');
  fs.mkdirSync(stage);
  fs.symlinkSync('../outside', path.join(stage, 'lnout'));
  fs.writeFileSync(path.join(stage, 'x'), 'pwned\n');
  const tar = (...args: string[]): void => void execFileSync('tar', args, { cwd: stage, stdio: 'ignore' });
  const archive = path.join(l.ws, 'evil.tar');
  tar('-cf', archive, 'lnout');
  for (const name of ['lnout/pwned', '.bashrc', '.vscode/settings.json', '../pwned-by-tar', `${l.outside}/pwned-abs`]) tar('-rPf', archive, `--transform=s,^x$,${name},`, 'x');
  try {
    execFileSync('zip', ['-q', '--symlinks', path.join(l.ws, 'evil.zip'), 'lnout', 'x'], { cwd: stage, stdio: 'ignore' });
  } catch {
    // zip is optional: unzip is not a command the checker knows, so it asks either way.
  }
  fs.rmSync(stage, { recursive: true, force: true });
}

/** A fresh copy of the fixture at `dest` (links copied as links, times kept so the canary diff is exact). */
export async function copyFixture(base: string, dest: string): Promise<void> {
  // One `cp -a` is several times faster than Node's per-file copy on a loaded machine.
  await promisify(execFile)('cp', ['-a', base, dest]);
}

/** A snapshot of a directory tree: relative path to type, mode, size, mtime, link target and content. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    const abs = path.join(dir, rel);
    let st: fs.Stats;
    try {
      st = fs.lstatSync(abs);
    } catch {
      return;
    }
    // A directory's mtime only repeats what its entries show (and copying sets it late), so files carry it alone.
    // Whole seconds: copying keeps timestamps only to the microsecond.
    const head = st.isDirectory() ? st.mode.toString(8) : `${st.mode.toString(8)}:${Math.floor(st.mtimeMs / 1000)}`;
    if (st.isSymbolicLink()) out.set(rel, `${head}:link:${fs.readlinkSync(abs)}`);
    else if (st.isDirectory()) {
      out.set(rel, `${head}:dir`);
      for (const name of fs.readdirSync(abs).sort()) walk(path.join(rel, name));
    } else if (st.isFile()) out.set(rel, `${head}:file:${st.size < 65536 ? fs.readFileSync(abs, 'latin1') : st.size}`);
    else out.set(rel, `${head}:other`);
  };
  walk('.');
  return out;
}

/** What differs between two snapshots, as readable lines. */
export function diffTrees(before: Map<string, string>, after: Map<string, string>): string[] {
  const changes: string[] = [];
  for (const [rel, value] of after) {
    const old = before.get(rel);
    if (old === undefined) changes.push(`created ${rel}`);
    else if (old !== value) changes.push(`changed ${rel}`);
  }
  for (const rel of before.keys()) if (!after.has(rel)) changes.push(`removed ${rel}`);
  return changes;
}
