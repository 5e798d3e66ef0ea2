import fs from 'node:fs';
import path from 'node:path';
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
  return { ...fx, outside };
}
