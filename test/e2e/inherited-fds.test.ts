import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const DRIVER = fileURLToPath(new URL('../helpers/sandbox-driver.mjs', import.meta.url));

// A host that embeds the runtime may leak descriptors into it (an editor's sockets, a harness's files, opened
// without close-on-exec). Commands are spawned by the runtime's launcher, which marks them close-on-exec at start:
// a command, sandboxed or not, sees only its own stdio.
describe.runIf(process.platform === 'linux')('descriptors the host leaked into the runtime', () => {
  let ws: TempTree;
  beforeAll(() => {
    ws = makeTempTree('tw-fds', { 'fds.sh': 'ls /proc/self/fd | tr "\\n" " "\n', 'leaked': 'secret\n' });
  });
  afterAll(() => ws.cleanup());

  function commandFds(sandboxZygote: boolean): string[] {
    const config = JSON.stringify({ workspaceRoot: ws.root, commands: ['sh fds.sh'], sandboxZygote });
    // fd 200 opened by bash without close-on-exec, then inherited by the driver (the host) through exec. (libuv
    // happens to close low descriptors in a child it spawns, not a high one.)
    const out = execFileSync('bash', ['-c', 'exec 200<"$1"; exec node "$2" "$3"', 'bash', ws.at('leaked'), DRIVER, config], { encoding: 'utf8' });
    const [result] = JSON.parse(out) as { stdout: string; text: string }[];
    return (result?.stdout ?? result?.text ?? '').trim().split(/\s+/);
  }

  it.each([['in the session zygote', true], ['in a bwrap of its own', false]])('do not reach a sandboxed command %s', (_name, zygote) => {
    const fds = commandFds(zygote);
    expect(fds).toContain('0'); // near miss: its own stdio is there
    expect(fds).not.toContain('200');
  });
});
