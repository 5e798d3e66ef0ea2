import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { PACKAGE_INFO } from '../../src/package-info.js';
import { SERVER_INFO } from '../../runtime/serve/session-mcp-server.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as Record<string, unknown> & { version: string };
let packed: Set<string>;

beforeAll(() => {
  // What `npm publish` would upload, from the current build (`npm test` builds first).
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [report] = JSON.parse(out) as { files: { path: string }[] }[];
  packed = new Set(report!.files.map((f) => f.path));
}, 120_000);

describe('the published package', () => {
  it('carries the README, the LICENSE and the compiled entry points', () => {
    for (const file of ['README.md', 'LICENSE', 'package.json', 'dist/runtime/index.js', 'dist/src/tool-api.js', 'dist/runtime/adapters/index.js', 'dist/cli/main.js']) {
      expect(packed.has(file), file).toBe(true);
    }
    expect(fs.readFileSync(path.join(REPO, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 toolwarden contributors\n/);
  });

  it("carries the dashboard's page files beside the compiled code that reads them", () => {
    for (const file of ['index.html', 'app.js', 'app.css']) expect(packed.has(`runtime/serve/dashboard/assets/${file}`), file).toBe(true);
    expect(packed.has('dist/runtime/serve/dashboard/dashboard-assets.js')).toBe(true);
  });

  it('carries the JSON Schema of capability token claims, under the name its exports map gives it', () => {
    expect(packed.has('src/capability/capability-token.schema.json')).toBe(true);
    expect((PKG['exports'] as Record<string, unknown>)['./capability-token.schema.json']).toBe('./src/capability/capability-token.schema.json');
  });

  it('leaves out the benchmarks, the fuzzers and the tests, compiled or not', () => {
    const stray = [...packed].filter((file) => /^(dist\/)?(bench|fuzz|test)\//.test(file) || file.endsWith('.test.ts') || file.endsWith('.test.js'));
    expect(stray).toEqual([]);
    const dist = [...packed].filter((file) => file.startsWith('dist/'));
    expect(dist.filter((file) => !/^dist\/(src|runtime|workers|cli)\//.test(file))).toEqual([]);
  });

  it('ships every source a shipped source map names, so stack traces resolve', () => {
    const maps = [...packed].filter((file) => file.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    const missing: string[] = [];
    for (const map of maps) {
      const { sources, sourceRoot = '' } = JSON.parse(fs.readFileSync(path.join(REPO, map), 'utf8')) as { sources: string[]; sourceRoot?: string };
      for (const source of sources) {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(map), sourceRoot, source));
        if (!packed.has(resolved)) missing.push(`${map} -> ${resolved}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has the registry metadata', () => {
    expect(PKG).toMatchObject({ license: 'MIT', repository: expect.anything(), homepage: expect.any(String), bugs: expect.anything(), keywords: expect.arrayContaining(['mcp']) });
  });

  it('reports package.json version as the CLI and MCP server version', () => {
    expect(PACKAGE_INFO.version).toBe(PKG.version);
    expect(SERVER_INFO).toEqual({ name: 'toolwarden', version: PKG.version });
  });
});
