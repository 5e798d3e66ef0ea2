import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as all from '../../runtime/adapters/index.js';
import { aiSdkTools } from '../../runtime/adapters/ai-sdk.js';
import { FRAMEWORK_PACKAGES } from '../../runtime/adapters/import-framework.js';
import { langchainTools } from '../../runtime/adapters/langchain.js';
import { openAIAgentsTools } from '../../runtime/adapters/openai-agents.js';
import { openFixture, type AdapterFixture } from './fixture.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PKG = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { exports: Record<string, { types: string; default: string } | string>; peerDependencies: Record<string, string> };
const FRAMEWORKS = ['ai', '@langchain/core', '@openai/agents', '@anthropic-ai/claude-agent-sdk'];

/** Every entry point, what it exports, and the one framework its declarations may import (none for most). */
const ENTRY_POINTS: Record<string, { exports: string[]; framework?: string }> = {
  '.': { exports: ['createRuntime', 'createMcpServer'] },
  './tool': { exports: ['defineTool'] },
  './adapters': { exports: ['aiSdkTools', 'anthropicTools', 'claudeAgentMcpServer', 'langchainTools', 'openAIAgentsTools', 'openAITools', 'runAnthropicToolUse', 'runOpenAIToolCall', 'resultText'] },
  './adapters/ai-sdk': { exports: ['aiSdkTools'], framework: 'ai' },
  './adapters/openai': { exports: ['openAITools', 'runOpenAIToolCall', 'toStrictSchema', 'dropStrictNulls'] },
  './adapters/anthropic': { exports: ['anthropicTools', 'runAnthropicToolUse'] },
  './adapters/langchain': { exports: ['langchainTools'], framework: '@langchain/core' },
  './adapters/openai-agents': { exports: ['openAIAgentsTools'], framework: '@openai/agents' },
  './adapters/claude-agent': { exports: ['claudeAgentMcpServer'] },
};
const entries = Object.entries(PKG.exports).flatMap(([subpath, target]) => (typeof target === 'string' ? [] : [{ subpath, ...target }]));

/** The packages a declaration file and the declaration files it imports, relatively, name (`@scope/name` or `name`). */
function packagesReached(file: string, seen = new Set<string>(), found = new Set<string>()): Set<string> {
  if (seen.has(file)) return found;
  seen.add(file);
  const text = fs.readFileSync(file, 'utf8');
  for (const [, specifier] of text.matchAll(/(?:from\s+|import\s*\(\s*)'([^']+)'/g)) {
    if (specifier!.startsWith('.')) packagesReached(path.resolve(path.dirname(file), specifier!.replace(/\.js$/, '.d.ts')), seen, found);
    else if (!specifier!.startsWith('node:')) found.add(specifier!.split('/').slice(0, specifier!.startsWith('@') ? 2 : 1).join('/'));
  }
  return found;
}

describe('the package entry points', () => {
  it('lists every entry point of package.json here, so each is checked', () => {
    expect(entries.map((e) => e.subpath).sort()).toEqual(Object.keys(ENTRY_POINTS).sort());
  });

  it.each(entries)('$subpath resolves from the built package with its exports', ({ subpath }) => {
    const specifier = `toolwarden${subpath.slice(1)}`;
    const script = `import(${JSON.stringify(specifier)}).then((m) => process.stdout.write(Object.keys(m).join(',')))`;
    const names = execFileSync(process.execPath, ['-e', script], { cwd: REPO, encoding: 'utf8' }).split(',');
    expect(names).toEqual(expect.arrayContaining(ENTRY_POINTS[subpath]!.exports));
  });

  it.each(entries)("$subpath's declarations import no framework but its own", ({ subpath, types }) => {
    const frameworks = [...packagesReached(path.join(REPO, types))].filter((name) => FRAMEWORKS.includes(name));
    const own = ENTRY_POINTS[subpath]!.framework;
    expect(frameworks).toEqual(own === undefined ? [] : [own]);
  });

  it('imports no framework package statically, so a host installs only the frameworks it uses', () => {
    const dir = path.join(REPO, 'dist/runtime/adapters');
    for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.js'))) {
      const code = fs.readFileSync(path.join(dir, file), 'utf8');
      for (const framework of FRAMEWORKS) {
        expect(code, `${file} imports ${framework}`).not.toMatch(new RegExp(`^import[^;]*from '${framework}(/[^']*)?';`, 'm'));
      }
    }
  });

  it('names a version range in peerDependencies for every framework an adapter loads', () => {
    for (const framework of FRAMEWORK_PACKAGES) expect(PKG.peerDependencies[framework], framework).toMatch(/\d/);
    for (const { framework } of Object.values(ENTRY_POINTS)) if (framework !== undefined) expect(FRAMEWORK_PACKAGES).toContain(framework);
  });
});

describe('toolwarden/adapters, which loads the framework-bound adapters when called', () => {
  let fx: AdapterFixture;
  beforeAll(async () => {
    fx = await openFixture('tw-adapter-exports');
  });
  afterAll(() => fx.close());

  it('gives the same tools as their own entry points', async () => {
    expect(Object.keys(await all.aiSdkTools(fx.session))).toEqual(Object.keys(await aiSdkTools(fx.session)));
    expect((await all.langchainTools(fx.session)).map((t) => t.name)).toEqual((await langchainTools(fx.session)).map((t) => t.name));
    const strict = await all.openAIAgentsTools(fx.session, { strict: true });
    expect(strict.map((t) => [t.name, t.strict])).toEqual((await openAIAgentsTools(fx.session, { strict: true })).map((t) => [t.name, t.strict]));
  });
});
