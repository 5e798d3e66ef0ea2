import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { collectReadPaths } from '../../runtime/isolation/read-allowlist.js';
import { makeTempTree, textOf, type TempTree } from '../helpers/temp-workspace.js';
import { hasBwrap } from '../helpers/has-bwrap.js';

// Issue 29 item 8: with isolation 'process', host tool code read `.env` and every file below the folder of its
// module through node:fs, past every read_file rule (with the README's layout, that folder is the host project). A
// tool process may read the module files, what they import and the packages they resolve, never their siblings.
const SECRET = 'API_KEY=sk-live-do-not-leak';

const TOOLS = `
import { defineTool } from 'toolwarden';
import { z } from 'zod';
import { greet } from './lib/helper.mjs';
import pad from 'fake-pad';

export const peek = defineTool({
  name: 'peek',
  description: 'Reads a file with node:fs, past ctx',
  input: z.object({ path: z.string() }),
  run: async ({ path }) => {
    try {
      return { read: process.getBuiltinModule('fs').readFileSync(path, 'utf8') };
    } catch (error) {
      return { refused: String(error.code ?? error.message) };
    }
  },
});

export const hello = defineTool({
  name: 'hello',
  description: 'Uses a sibling module, a package and a lazily imported sibling',
  input: { type: 'object' },
  run: async () => ({ text: pad(greet('tw')), later: (await import('./lazy.mjs')).later }),
});
`;

let tree: TempTree;
let ws: TempTree;
let moduleFile: string;

beforeAll(() => {
  ws = makeTempTree('tw-allow-ws', { 'a.txt': 'a\n' });
  tree = makeTempTree('tw-allow-mods', {
    'tools.mjs': TOOLS,
    'lib/helper.mjs': "export const greet = (name) => `hello ${name}`;\n",
    'lazy.mjs': 'export const later = true;\n',
    '.env': `${SECRET}\n`,
    'lib/.env': `${SECRET}\n`,
    'unused.mjs': `export const secret = '${SECRET}';\n`,
    'package.json': JSON.stringify({ type: 'module', dependencies: { toolwarden: '*', zod: '*', 'fake-pad': '*' } }),
    'node_modules/fake-pad/package.json': JSON.stringify({ name: 'fake-pad', type: 'module', exports: './index.js' }),
    'node_modules/fake-pad/index.js': "import { edge } from './edge.js';\nexport default (s) => `${edge}${s}${edge}`;\n",
    'node_modules/fake-pad/edge.js': "export const edge = '*';\n",
  });
  fs.symlinkSync(path.resolve('.'), tree.at('node_modules/toolwarden'));
  fs.symlinkSync(path.resolve('node_modules/zod'), tree.at('node_modules/zod'));
  moduleFile = tree.at('tools.mjs');
});
afterAll(() => {
  tree.cleanup();
  ws.cleanup();
});

describe('collectReadPaths', () => {
  it('grants the module, what it imports and the packages it resolves, never the folder around them', () => {
    const distDir = path.resolve('dist');
    const paths = collectReadPaths(distDir, [pathToFileURL(moduleFile).href]);
    const covers = (p: string): boolean => paths.some((granted) => p === granted || p.startsWith(`${granted}/`));
    for (const p of ['tools.mjs', 'lib/helper.mjs', 'lazy.mjs', 'node_modules/fake-pad/index.js', 'node_modules/fake-pad/edge.js']) expect(covers(tree.at(p)), p).toBe(true);
    for (const p of ['.env', 'lib/.env', 'unused.mjs']) expect(covers(tree.at(p)), p).toBe(false);
    expect(paths).not.toContain(tree.root);
    expect(paths).not.toContain(tree.at('lib'));
  });
});

async function peekSession(rt: Runtime): Promise<Session> {
  return rt.openSession({ workspaceRoot: ws.root, tools: ['peek', 'hello'], toolModules: [moduleFile], isolation: 'process' });
}

describe.each([
  ["Node's permission model", { sandbox: 'off' as const, allowSharedPidNamespace: true }, false],
  ['bubblewrap', { sandbox: 'required' as const }, true],
])('a tool process under %s', (_name, options, needsBwrap) => {
  let rt: Runtime;
  let s: Session;
  beforeAll(async () => {
    if (needsBwrap && !hasBwrap) return;
    rt = await createRuntime({ idleWorkers: 0, ...options });
    s = await peekSession(rt);
  }, 60_000);
  afterAll(async () => {
    await rt?.close();
  });

  it.skipIf(needsBwrap && !hasBwrap).each(['.env', 'lib/.env', 'unused.mjs', 'package.json'])('cannot read %s beside its module', async (name) => {
    const result = await s.call('peek', { path: tree.at(name) });
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ refused: expect.stringMatching(/ERR_ACCESS_DENIED|ENOENT/) });
    expect(textOf(result)).not.toContain('sk-live');
  });

  it.skipIf(needsBwrap && !hasBwrap)('still runs a module that imports a sibling module, a package and a lazy sibling', async () => {
    const result = await s.call('hello', {});
    expect(result.isError, textOf(result)).toBeUndefined();
    expect(result.structuredContent).toEqual({ text: '*hello tw*', later: true });
  });
});
