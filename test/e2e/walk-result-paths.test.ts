import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

let rt: Runtime;
let ws: TempTree;
let outside: TempTree;
let s: Session;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
  ws = makeTempTree('tw-walk-paths', {
    'src/a.ts': 'export const needle = 1;\n',
    'src/deep/b.ts': 'const needle = 2;\n',
    'README.md': 'no match here\n',
  });
  outside = makeTempTree('tw-walk-read-root', { 'guide.md': 'needle in a read root\n' });
  s = await rt.openSession({ workspaceRoot: ws.root, readRoots: [outside.root], tools: ['read_file', 'grep', 'glob'] });
});
afterAll(async () => {
  await s?.close();
  await rt.close();
  ws?.cleanup();
  outside?.cleanup();
});

/** Reads each path with read_file; returns those that failed, with their code. */
async function unreadable(paths: readonly string[]): Promise<string[]> {
  const failed: string[] = [];
  for (const path of paths) {
    const result = await s.call('read_file', { path });
    if (result.isError) failed.push(`${path}: ${result.code}`);
  }
  return failed;
}

describe('grep and glob results are usable as-is by read_file', () => {
  it.each([{ path: 'src' }, { path: 'src/deep' }, { path: 'src/a.ts' }, {}])('grep with %o', async (where) => {
    const result = await s.call('grep', { pattern: 'needle', ...where });
    const paths = (result.structuredContent?.matches as { path: string }[]).map((m) => m.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(paths.every((p) => p.startsWith('src/'))).toBe(true);
    expect(await unreadable(paths)).toEqual([]);
  });

  it.each([{ path: 'src', pattern: '**/*.ts' }, { path: 'src/deep', pattern: '*.ts' }])('glob with %o', async (args) => {
    const result = await s.call('glob', args);
    const paths = result.structuredContent?.paths as string[];
    expect(paths.length).toBeGreaterThan(0);
    expect(await unreadable(paths)).toEqual([]);
  });

  it('shows a read root result as an absolute path read_file accepts', async () => {
    const result = await s.call('grep', { pattern: 'needle', path: outside.root });
    const paths = (result.structuredContent?.matches as { path: string }[]).map((m) => m.path);
    expect(paths).toEqual([outside.at('guide.md')]);
    expect(await unreadable(paths)).toEqual([]);
  });
});
