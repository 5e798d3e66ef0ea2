import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import type { ShellContext, ShellPathResolver } from '../../src/shell/index.js';
import { nodeShellFs } from '../../runtime/shell/shell-fs.js';

/** A real temp layout: workspace (with src/, .git/hooks, a link to /etc), a read root, and a home outside both. */
export interface Fixture {
  base: string;
  ctx: ShellContext;
  resolver: ShellPathResolver;
  cleanup(): void;
}

/** Builds the layout and a resolver with simple rules: writes inside the workspace, reads there or in a read root. */
export function createFixture(): Fixture {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-shell-')));
  const ws = path.join(base, 'ws');
  const ro = path.join(base, 'ro');
  const home = path.join(base, 'home');
  for (const dir of [ws, ro, home, path.join(ws, 'src', 'deep'), path.join(ws, '.git', 'hooks'), path.join(base, 'ws-evil')]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(ws, 'a.txt'), 'a\n');
  fs.writeFileSync(path.join(ro, 'ref.txt'), 'r\n');
  fs.symlinkSync('/etc', path.join(ws, 'etc-link'));
  fs.symlinkSync(path.join(ws, 'src'), path.join(ws, 'src-link'));
  const ctx: ShellContext = { cwd: ws, home, workspaceRoot: ws, readRoots: [ro], fs: nodeShellFs };
  const inside = (p: string, root: string): boolean => p === root || p.startsWith(`${root}/`);
  const resolve = (p: string, cwd: string): string => realpathExisting(path.resolve(realpathExisting(cwd), p));
  const resolver: ShellPathResolver = {
    read(p, cwd) {
      const abs = resolve(p, cwd);
      if (!inside(abs, ws) && !inside(abs, ro)) throw new ToolwardenError('NOT_READABLE', `${p} resolves to ${abs}, outside the workspace and read roots`);
    },
    write(p, cwd) {
      const abs = resolve(p, cwd);
      if (!inside(abs, ws)) throw new ToolwardenError('OUTSIDE_WORKSPACE', `${p} resolves to ${abs}, outside the workspace`);
      if (/(^|\/)\.git\/hooks(\/|$)/.test(abs.slice(ws.length))) throw new ToolwardenError('BLOCKED_PATH', `${p} is under .git/hooks`);
    },
  };
  return { base, ctx, resolver, cleanup: () => fs.rmSync(base, { recursive: true, force: true }) };
}

// Resolves symlinks in the longest existing prefix, keeping the rest as written.
function realpathExisting(p: string): string {
  let head = p;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync(head), ...tail);
    } catch {
      const parent = path.dirname(head);
      if (parent === head) return p;
      tail.unshift(path.basename(head));
      head = parent;
    }
  }
}
