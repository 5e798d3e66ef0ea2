import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';

// Threat family 24 across tenants: bob's session tries ann's workspace every way the tools allow (links bob's
// workspace holds, `..`, globs, absolute paths, options that follow links), and every refusal is read. None may carry
// ann's workspace path, a name in it or its content, unless the attempt itself wrote it.
let home: TempTree;
let rt: Runtime;
let bob: Session;
let ann: string;

beforeAll(async () => {
  home = makeTempTree('tw-tenant-refusals', {
    'tenant-ann-ws/ann-secret.txt': 'ANN-CONTENT\n',
    'tenant-ann-ws/private/plan.md': 'ANN-CONTENT plan\n',
    'tenant-bob-ws/a.txt': 'bob\n',
  });
  ann = home.at('tenant-ann-ws');
  fs.symlinkSync(ann, home.at('tenant-bob-ws/peer'));
  fs.symlinkSync(home.at('tenant-ann-ws/ann-secret.txt'), home.at('tenant-bob-ws/peer-file'));
  fs.symlinkSync(home.at('tenant-ann-ws/private'), home.at('tenant-bob-ws/peer-dir'));
  const tools = ['read_file', 'write_file', 'edit_file', 'apply_patch', 'list_dir', 'glob', 'grep', 'bash'];
  rt = await createRuntime({
    idleWorkers: 0,
    tenants: { ann: { workspaceRoot: ann, tools }, bob: { workspaceRoot: home.at('tenant-bob-ws'), tools } },
  });
  bob = await rt.openSession({ user: 'bob', sandbox: 'off', limits: { commandTimeoutMs: 10_000 } });
});

afterAll(async () => {
  await bob?.close();
  await rt?.close();
  home.cleanup();
});

const patch = (file: string): string => `*** Begin Patch\n*** Add File: ${file}\n+x\n*** End Patch\n`;

// Attempts on ann's workspace; `{ANN}` stands for its absolute path (only where the attempt itself writes it).
const ATTEMPTS: [string, Record<string, unknown>][] = [
  ['read_file', { path: 'peer/ann-secret.txt' }],
  ['read_file', { path: 'peer-file' }],
  ['read_file', { path: 'peer/nope.txt' }],
  ['read_file', { path: 'peer-dir/plan.md' }],
  ['read_file', { path: '../tenant-ann-ws/ann-secret.txt' }],
  ['read_file', { path: '{ANN}/private/plan.md' }],
  ['list_dir', { path: 'peer' }],
  ['list_dir', { path: 'peer-dir' }],
  ['list_dir', { path: '..' }],
  ['list_dir', { path: '{ANN}' }],
  ['glob', { pattern: '*', path: 'peer' }],
  ['glob', { pattern: '**/*', path: '..' }],
  ['grep', { pattern: 'ANN', path: 'peer' }],
  ['grep', { pattern: 'ANN', path: 'peer-file' }],
  ['grep', { pattern: 'ANN', path: '..' }],
  ['write_file', { path: 'peer/new.txt', content: 'x' }],
  ['write_file', { path: 'peer-file', content: 'x' }],
  ['write_file', { path: 'peer-dir/new.md', content: 'x' }],
  ['edit_file', { path: 'peer-file', old_string: 'A', new_string: 'B' }],
  ['apply_patch', { patch: patch('peer/x.txt') }],
  ['apply_patch', { patch: patch('peer-dir/x.md') }],
  ['bash', { command: 'cat peer/ann-secret.txt' }],
  ['bash', { command: 'cat peer-file' }],
  ['bash', { command: 'cat peer/*' }],
  ['bash', { command: 'cat peer-dir/*' }],
  ['bash', { command: 'cat ../*/a*' }],
  ['bash', { command: 'cat ../tenant-a*/*' }],
  ['bash', { command: 'ls ../*' }],
  ['bash', { command: 'echo ../*/*' }],
  ['bash', { command: 'for f in ../*/*; do cat "$f"; done' }],
  ['bash', { command: 'ls -lL' }],
  ['bash', { command: 'ls -l --dereference' }],
  ['bash', { command: 'ls --dereference -l peer/..' }],
  ['bash', { command: 'stat -L peer-file' }],
  ['bash', { command: 'grep -R ANN .' }],
  ['bash', { command: 'find -L .' }],
  ['bash', { command: 'du -L .' }],
  ['bash', { command: 'tar -chf x.tar .' }],
  ['bash', { command: 'cp -rL . copy' }],
  ['bash', { command: 'echo x > peer/new.txt' }],
  ['bash', { command: 'cd peer && cat *' }],
  ['bash', { command: 'cat peer-dir/../ann-secret.txt' }],
  ['bash', { command: 'cat peer/*/*' }],
  ['bash', { command: 'cat {ANN}/private/plan.md' }],
  ['bash', { command: 'ls', cwd: 'peer' }],
  ['bash', { command: 'cat *', cwd: 'peer-dir' }],
];

/** Everything a result carries, as text. */
function everything(result: Awaited<ReturnType<Session['call']>>): string {
  return `${result.code ?? ''}\n${textOf(result)}\n${JSON.stringify(result.structuredContent ?? {})}`;
}

describe("a tenant's refusals name none of another tenant's paths", () => {
  it('refuses every attempt, and no refusal carries what the attempt did not write', async () => {
    const leaks: string[] = [];
    for (const [tool, template] of ATTEMPTS) {
      const args = JSON.parse(JSON.stringify(template).replaceAll('{ANN}', ann)) as Record<string, unknown>;
      const written = JSON.stringify(args);
      const result = await bob.call(tool, args);
      const text = everything(result);
      if (!result.isError) leaks.push(`${tool} ${written} was not refused: ${text}`);
      const forbidden = [ann, 'tenant-ann-ws', 'ann-secret.txt', 'plan.md', 'private', 'ANN-CONTENT'].filter((s) => !written.includes(s));
      for (const word of forbidden) if (text.includes(word)) leaks.push(`${tool} ${written} says ${JSON.stringify(word)}: ${text}`);
    }
    expect(leaks).toEqual([]);
  });

  it.each([
    ['read_file', 'peer/{X}', 'ann-secret.txt', 'nope.txt'],
    ['read_file', 'peer-dir/{X}', 'plan.md', 'nope.md'],
    ['list_dir', 'peer/{X}', 'private', 'nope'],
    ['write_file', 'peer/{X}/f', 'private', 'nope'],
    ['grep', 'peer/{X}', 'private', 'nope'],
    ['bash', 'peer/{X}', 'private', 'nope'],
  ])('%s reads the same for an existing and a missing entry of the other tenant (%s)', async (tool, template, existing, missing) => {
    const extra: Record<string, Record<string, unknown>> = { write_file: { content: 'x' }, grep: { pattern: 'x' } };
    const call = async (name: string): Promise<unknown> => {
      const at = template.replace('{X}', name);
      const result = await bob.call(tool, tool === 'bash' ? { command: 'true', cwd: at } : { path: at, ...extra[tool] });
      return { isError: result.isError, code: result.code, text: everything(result).replaceAll(name, '{X}') };
    };
    expect(await call(existing)).toEqual(await call(missing));
  });
});
