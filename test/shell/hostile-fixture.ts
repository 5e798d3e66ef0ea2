import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { findBlockedEntry } from '../../src/path-guard/index.js';
import { createFixture, type Fixture } from './fixture.js';

/** The base fixture plus what attacks aim at: an outside canary, links out, `self -> .`, a nested repository. */
export interface HostileFixture extends Fixture {
  outside: string;
}

/** Builds {@link createFixture}'s layout and adds the hostile parts (real files, real symlinks). */
export function createHostileFixture(): HostileFixture {
  const fx = createFixture();
  const ws = fx.ctx.workspaceRoot;
  const outside = path.join(fx.base, 'outside');
  const put = (file: string, text: string): void => {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  };
  put(path.join(outside, 'secret.txt'), 'CANARY\n');
  put(path.join(ws, 'b.txt'), 'b\n');
  put(path.join(ws, 'evil.sh'), `#!/bin/sh\ncat ${outside}/secret.txt\n`);
  put(path.join(ws, 'sub', 'inner.txt'), 'inner\n');
  put(path.join(ws, 'nested', 'file.txt'), 'nested\n');
  put(path.join(ws, 'nested', '.git', 'config'), `[core]\n\tfsmonitor = ${ws}/evil.sh\n`);
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'link-out-file'));
  fs.symlinkSync(outside, path.join(ws, 'link-out-dir'));
  fs.symlinkSync('../outside', path.join(ws, 'rel-out'));
  fs.symlinkSync('.', path.join(ws, 'self'));
  buildEvilTar(path.join(ws, 'evil.tar'), outside);
  // Writes also go through the guard's blocklist, as the session's resolver does (.envrc, nested .git/config...).
  const resolver = {
    read: fx.resolver.read,
    write(p: string, cwd: string): void {
      fx.resolver.write(p, cwd);
      const abs = path.resolve(cwd, p);
      const entry = findBlockedEntry(abs, ws, path.posix);
      if (entry !== undefined) throw new ToolwardenError('BLOCKED_PATH', `${p} is on the blocklist`);
    },
  };
  return { ...fx, resolver, outside };
}

/**
 * A tar archive whose members attack extraction: `lnout -> ../outside`, then `lnout/x` written through it, `.bashrc`,
 * `../x`, and an absolute name under `outside` (built with GNU tar's --transform; -P keeps the names as given).
 */
export function buildEvilTar(archive: string, outside: string): void {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-evil-tar-'));
  try {
    fs.symlinkSync('../outside', path.join(stage, 'lnout'));
    fs.writeFileSync(path.join(stage, 'x'), 'evil\n');
    const tar = (...args: string[]): void => void execFileSync('tar', args, { cwd: stage, stdio: 'ignore' });
    tar('-cf', archive, 'lnout');
    for (const name of ['lnout/x', '.bashrc', '.vscode/settings.json', '../x', `${outside}/pwned-by-tar`]) tar('-rPf', archive, `--transform=s,^x$,${name},`, 'x');
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}
