import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, type McpPeer } from '../../bench/mcp-client.js';

// Scenario 6's servers, started as the scenario starts them (serve and the replay load from dist/: build first).
// bench/paths.ts finds the root from dist/bench/; this file runs from test/bench/.
const repoPath = (relative: string): string => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const CLI = repoPath('dist/cli/main.js');
const FLOOR_HTTP = repoPath('bench/fixtures/sdk-floor-http-server.mjs');
const REPLAY = repoPath('bench/fixtures/serve-replay-server.mjs');
const TOKEN = 'bench-test-token-0123456789';

let root: string;
let file: string;
let dir: string;
let config: string;

beforeAll(() => {
  root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tw-bench-mcp-')));
  file = path.join(root, 'note.txt');
  dir = path.join(root, 'tree');
  fs.writeFileSync(file, 'first line\nsecond line\n');
  fs.mkdirSync(path.join(dir, 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'a.txt'), 'a');
  config = path.join(root, 'serve-http.json');
  fs.writeFileSync(config, JSON.stringify({ tenants: { bench: { workspaceRoot: root, tools: ['read_file', 'list_dir'] } }, tokens: { [TOKEN]: 'bench' }, sandbox: 'off' }));
});

afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Runs `use` on toolwarden serve and the replay started side by side, closing whichever started. */
async function bothOf(serve: Promise<McpPeer>, layer: Promise<McpPeer>, use: (served: McpPeer, replayed: McpPeer) => Promise<void>): Promise<void> {
  const [served, replayed] = await Promise.allSettled([serve, layer]);
  try {
    if (served.status === 'rejected') throw served.reason;
    if (replayed.status === 'rejected') throw replayed.reason;
    await use(served.value, replayed.value);
  } finally {
    await Promise.all([served, replayed].map((peer) => (peer.status === 'fulfilled' ? peer.value.close() : undefined)));
  }
}

describe('connectHttp', () => {
  it('connects to the server where it says it listens, and closing ends the server', async () => {
    const peer = await connectHttp([FLOOR_HTTP, file, dir], root, TOKEN);
    const { pid } = peer;
    expect(pid).toEqual(expect.any(Number));
    const result = await peer.client.callTool({ name: 'read', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'first line\nsecond line\n' }]);
    await peer.close();
    expect(alive(pid as number)).toBe(false);
  });

  it('a server that exits before saying where it listens is an error carrying its stderr', async () => {
    await expect(connectHttp(['-e', "process.stderr.write('no port for you'); process.exit(3)"], root, TOKEN)).rejects.toThrow(
      /exited before listening; its stderr: no port for you/,
    );
  });
});

describe("serve's own layer (serve-replay-server.mjs)", () => {
  const calls = [
    ['read_file', () => ({ path: file })],
    ['list_dir', () => ({ path: dir })],
  ] as const;

  it.each(calls)('answers %s over stdio exactly as toolwarden serve does', async (name, args) => {
    const serve = connectStdio([CLI, 'serve', '--workspace', root, '--tools', 'read_file,list_dir', '--sandbox', 'off'], root);
    const layer = connectStdio([REPLAY, 'stdio', root, file, dir], root);
    await bothOf(serve, layer, async (served, replayed) => {
      const expected = await served.client.callTool({ name, arguments: args() });
      expect(expected.isError).toBeFalsy();
      expect(await replayed.client.callTool({ name, arguments: args() })).toEqual(expected);
      expect((await replayed.client.listTools()).tools).toEqual((await served.client.listTools()).tools);
    });
  });

  it.each(calls)('answers %s over HTTP exactly as toolwarden serve --http does', async (name, args) => {
    const serve = connectHttp([CLI, 'serve', '--http', '--config', config, '--port', '0'], root, TOKEN);
    const layer = connectHttp([REPLAY, 'http', root, file, dir], root, TOKEN);
    await bothOf(serve, layer, async (served, replayed) => {
      const expected = await served.client.callTool({ name, arguments: args() });
      expect(expected.isError).toBeFalsy();
      expect(await replayed.client.callTool({ name, arguments: args() })).toEqual(expected);
    });
  });
});
