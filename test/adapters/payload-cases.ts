import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../../src/tools/builtin-schemas.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

/**
 * One call of a built-in tool and the facts its result must bring to the model, whichever part of the result the
 * model's host reads. Each call works on its own files, so a host may run them in any order or at once.
 */
export interface PayloadCase {
  tool: BuiltinToolName;
  args: Record<string, unknown>;
  /** Strings that must reach the model: the file text, the entries, the matches, the output. */
  payload: readonly string[];
}

/** The workspace every payload session starts from. */
export const PAYLOAD_FILES: Readonly<Record<string, string>> = {
  'notes.txt': 'alpha line\nbeta line\n',
  'edit.txt': 'colour one, colour two\n',
  'listed/first-entry.txt': '1\n',
  'listed/second-entry.md': '2\n',
  'docs/guide.md': '# guide\n',
  'haystack.txt': 'hay\nthe needle line\nhay\n',
};

/** The page web_fetch gets from the fixture's loopback server. */
export const PAGE_BODY = 'served page body';

/** One call per built-in tool (web_fetch only where the session may reach `pageUrl`). */
export function payloadCases(pageUrl?: string): PayloadCase[] {
  const cases: PayloadCase[] = [
    { tool: 'read_file', args: { path: 'notes.txt' }, payload: ['alpha line', 'beta line'] },
    { tool: 'write_file', args: { path: 'out/new.txt', content: 'fresh text' }, payload: ['out/new.txt', '10'] },
    { tool: 'edit_file', args: { path: 'edit.txt', old_string: 'colour', new_string: 'color', replace_all: true }, payload: ['edit.txt', '2'] },
    { tool: 'apply_patch', args: { patch: '*** Begin Patch\n*** Add File: patched/added.txt\n+patched in\n*** End Patch\n' }, payload: ['patched/added.txt'] },
    { tool: 'list_dir', args: { path: 'listed' }, payload: ['first-entry.txt', 'second-entry.md'] },
    { tool: 'glob', args: { pattern: 'docs/**/*.md' }, payload: ['docs/guide.md'] },
    { tool: 'grep', args: { pattern: 'needle', path: 'haystack.txt' }, payload: ['haystack.txt', 'the needle line'] },
    { tool: 'bash', args: { command: 'echo bash-said-hello' }, payload: ['bash-said-hello'] },
  ];
  if (pageUrl !== undefined) cases.push({ tool: 'web_fetch', args: { url: pageUrl }, payload: [PAGE_BODY] });
  return cases;
}

/** The payload strings of `expected` that `seen` lacks, as `tool: string` (empty when everything reached the model). */
export function missingPayload(expected: readonly PayloadCase[], seen: ReadonlyMap<PayloadCase, string>): string[] {
  return expected.flatMap((c) => c.payload.filter((fact) => !(seen.get(c) ?? '').includes(fact)).map((fact) => `${c.tool}: ${fact}`));
}

/** A runtime, a loopback page for web_fetch, and a fresh workspace and session per adapter under test. */
export interface PayloadFixture {
  rt: Runtime;
  pageUrl: string;
  /** A session with every built-in tool (and the page's host) over a new copy of {@link PAYLOAD_FILES}. */
  openSession(): Promise<{ session: Session; ws: TempTree }>;
  close(): Promise<void>;
}

export async function openPayloadFixture(prefix: string): Promise<PayloadFixture> {
  const page = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(PAGE_BODY));
  await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
  const { port } = page.address() as AddressInfo;
  const rt = await createRuntime({ sandbox: 'off', idleWorkers: 1 });
  const trees: TempTree[] = [];
  return {
    rt,
    pageUrl: `http://127.0.0.1:${port}/page`,
    openSession: async () => {
      const ws = makeTempTree(prefix, { ...PAYLOAD_FILES });
      trees.push(ws);
      const session = await rt.openSession({ workspaceRoot: ws.root, tools: [...BUILTIN_TOOL_NAMES], net: [`127.0.0.1:${port}`] });
      return { session, ws };
    },
    close: async () => {
      await rt.close();
      await new Promise<void>((resolve) => page.close(() => resolve()));
      for (const ws of trees) ws.cleanup();
    },
  };
}
