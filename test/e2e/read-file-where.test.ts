import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { FORMAT_ON_MAIN_MAX_BYTES } from '../../runtime/calls/call-plan.js';
import { readFileResult } from '../../src/text/read-file-result.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// read_file formats a small file on the main thread, right after the broker read it, and a large one in the session's
// worker: the same function (readFileResult) either way, so a caller cannot tell where it ran but by the time taken.
const LINE = 'a line of text\n';
const text = (path: string): string => fs.readFileSync(ws.at(path), 'utf8');
const lines = (bytes: number): string => LINE.repeat(Math.ceil(bytes / LINE.length)).slice(0, bytes);
let rt: Runtime;
let ws: TempTree;
let session: Session;

beforeAll(async () => {
  ws = makeTempTree('tw-read-where', {
    'small.txt': lines(4096),
    'edge.txt': lines(FORMAT_ON_MAIN_MAX_BYTES),
    'large.txt': lines(FORMAT_ON_MAIN_MAX_BYTES + 1),
  });
  fs.writeFileSync(ws.at('small.bin'), Buffer.from([0, 1, 2, 3]));
  fs.writeFileSync(ws.at('large.bin'), Buffer.concat([Buffer.from([0]), Buffer.alloc(FORMAT_ON_MAIN_MAX_BYTES + 10, 7)]));
  rt = await createRuntime({ idleWorkers: 1 });
  session = await rt.openSession({ workspaceRoot: ws.root, tools: ['read_file'], limits: { readMaxChars: 2000 } });
});
afterAll(async () => {
  await rt.close();
  ws.cleanup();
});

describe('read_file on either side of FORMAT_ON_MAIN_MAX_BYTES', () => {
  it.each([
    ['a small file (main thread)', 'small.txt', {}],
    ['a file of exactly the bound (main thread)', 'edge.txt', { offset: 3, limit: 4 }],
    ['a large file (worker)', 'large.txt', {}],
    ['a large file with an offset (worker)', 'large.txt', { offset: 100, limit: 2 }],
  ])('%s gives what readFileResult makes of it', async (_name, path, extra) => {
    const args = { path, ...extra };
    const result = await session.call('read_file', args);
    const expected = readFileResult(args, { path, text: text(path), binary: false, size: text(path).length }, 2000);
    expect(result).toEqual(expected);
  });

  it.each([
    ['small.bin', 'UNSUPPORTED_FILE'],
    ['large.bin', 'UNSUPPORTED_FILE'],
  ])('a binary file (%s) is refused the same way', async (path, code) => {
    expect(await session.call('read_file', { path })).toMatchObject({ isError: true, code });
  });

  it.each(['small.txt', 'large.txt'])('an offset past the end of %s is a note, not an error', async (path) => {
    const result = await session.call('read_file', { path, offset: 10_000_000 });
    expect(result.isError).toBeUndefined();
    expect(result.content[0]?.text).toMatch(/offset 10000000 is past the end/);
  });
});
