import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

const MAIN = path.join(fileURLToPath(new URL('../..', import.meta.url)), 'dist/cli/main.js');

let ws: TempTree;
beforeAll(() => {
  ws = makeTempTree('tw-stdio-parse', { 'a.txt': 'a\n' });
});
afterAll(() => ws.cleanup());

/** Writes `lines` to a fresh `serve` on stdin and collects the JSON-RPC messages it answers until `count` arrived. */
async function exchange(lines: string[], count: number): Promise<Record<string, unknown>[]> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--workspace', ws.root, '--tools', 'read_file'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const replies: Record<string, unknown>[] = [];
  let buffer = '';
  try {
    return await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${replies.length} replies: ${JSON.stringify(replies)}`)), 20_000);
      child.stdout.on('data', (chunk: Buffer) => {
        buffer += chunk.toString();
        let newline: number;
        while ((newline = buffer.indexOf('\n')) >= 0) {
          replies.push(JSON.parse(buffer.slice(0, newline)) as Record<string, unknown>);
          buffer = buffer.slice(newline + 1);
        }
        if (replies.length >= count) {
          clearTimeout(timer);
          resolve(replies);
        }
      });
      for (const line of lines) child.stdin.write(`${line}\n`);
    });
  } finally {
    child.kill();
  }
}

describe('toolwarden serve (stdio) malformed input', () => {
  it('answers a line that is not JSON with -32700 and one that is not JSON-RPC with -32600, and keeps serving', async () => {
    const replies = await exchange(['{"jsonrpc": "2.0", "id": 1, "method": ', '{"hello": "world"}', '{"jsonrpc":"2.0","id":7,"method":"ping"}'], 3);
    expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
    expect(replies[1]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32600 } });
    expect(replies[2]).toMatchObject({ jsonrpc: '2.0', id: 7, result: {} });
  });
});
