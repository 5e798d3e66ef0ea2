import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const TSC = path.join(REPO, 'node_modules/typescript/bin/tsc');
const run = promisify(execFile);

/** The framework each framework-bound subpath needs, as package.json's peerDependencies name them, and its adapter. */
const FRAMEWORK_SUBPATHS = { 'ai-sdk': 'ai', langchain: '@langchain/core', 'openai-agents': '@openai/agents' } as const;
const ADAPTER_OF = { 'ai-sdk': 'aiSdkTools', langchain: 'langchainTools', 'openai-agents': 'openAIAgentsTools' } as const;

let project: string;

/**
 * A project that installed the packed tarball and nothing else: npm pack, the tarball unpacked as
 * node_modules/toolwarden, its own dependencies (and @types/node, which a TypeScript user has) linked from this
 * repository's node_modules, as an offline install of the tarball would lay them out, and no framework anywhere above.
 */
beforeAll(async () => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-no-frameworks-'));
  const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: REPO });
  const { filename } = (JSON.parse(stdout) as { filename: string }[])[0]!;
  const installed = path.join(project, 'node_modules/toolwarden');
  fs.mkdirSync(installed, { recursive: true });
  await run('tar', ['-xzf', path.join(project, filename), '-C', installed, '--strip-components=1']);
  const manifest = JSON.parse(fs.readFileSync(path.join(installed, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; optionalDependencies?: Record<string, string> };
  for (const name of [...Object.keys(manifest.dependencies), ...Object.keys(manifest.optionalDependencies ?? {}), '@types/node']) {
    const link = path.join(project, 'node_modules', name);
    fs.mkdirSync(path.dirname(link), { recursive: true });
    fs.symlinkSync(fs.realpathSync(path.join(REPO, 'node_modules', name)), link, 'dir');
  }
  const compilerOptions = { strict: true, skipLibCheck: false, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'ES2022', types: ['node'], noEmit: true };
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'user-project', version: '1.0.0', type: 'module', private: true }));
  fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['free.ts'] }));
}, 300_000);

afterAll(() => {
  if (project !== undefined) fs.rmSync(project, { recursive: true, force: true });
});

/** tsc's diagnostics for the project, one `file(line,col): error TSnnnn: message` per line. */
async function compile(): Promise<string[]> {
  try {
    await run(process.execPath, [TSC, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd: project });
    return [];
  } catch (error) {
    return ((error as { stdout?: string }).stdout ?? String(error)).split('\n').filter((line) => line.includes('error TS'));
  }
}

describe('a project with the packed toolwarden and no framework package', () => {
  it('compiles strict, with skipLibCheck false, against every entry point that needs no framework', async () => {
    fs.writeFileSync(
      path.join(project, 'free.ts'),
      [
        "import { createRuntime, type Session, type ToolResult } from 'toolwarden';",
        "import type { DefinedTool } from 'toolwarden/tool';",
        "import { aiSdkTools, langchainTools, openAIAgentsTools, claudeAgentMcpServer, openAITools, anthropicTools, resultText } from 'toolwarden/adapters';",
        "import { openAITools as chatTools, runOpenAIToolCall, type OpenAIChatToolCall } from 'toolwarden/adapters/openai';",
        "import { anthropicTools as messagesTools, runAnthropicToolUse, type AnthropicToolUseBlock } from 'toolwarden/adapters/anthropic';",
        "import { claudeAgentMcpServer as claudeServer, type ClaudeAgentMcpServerConfig } from 'toolwarden/adapters/claude-agent';",
        'export async function use(session: Session, call: OpenAIChatToolCall, block: AnthropicToolUseBlock, tool: DefinedTool, result: ToolResult): Promise<string[]> {',
        '  const config: ClaudeAgentMcpServerConfig = claudeServer(session);',
        '  const names = [config.name, claudeAgentMcpServer(session).type, tool.name, resultText(result)];',
        '  names.push(...Object.keys(await aiSdkTools(session)), ...(await langchainTools(session)).map((t) => t.name), ...(await openAIAgentsTools(session)).map((t) => t.name));',
        "  names.push(...(await chatTools(session, { api: 'chat' })).map((t) => t.function.name), ...(await openAITools(session, { api: 'responses' })).map((t) => t.name));",
        '  names.push(...(await messagesTools(session)).map((t) => t.name), ...(await anthropicTools(session)).map((t) => t.name));',
        '  names.push((await runOpenAIToolCall(session, call)).content, JSON.stringify((await runAnthropicToolUse(session, block)).content));',
        '  await createRuntime;',
        '  return names;',
        '}',
        '',
      ].join('\n'),
    );
    expect(await compile()).toEqual([]);
    // About 15 s of CPU (skipLibCheck false checks @types/node and zod too), and minutes on a machine busy with other work.
  }, 600_000);

  /**
   * Calls each framework-bound adapter, from its own entry point and from toolwarden/adapters, with a real session, and
   * the framework-free ones; prints each outcome as JSON.
   */
  async function callAdapters(): Promise<Record<string, unknown>> {
    const script = `
      import fs from 'node:fs';
      import os from 'node:os';
      import path from 'node:path';
      import { createRuntime } from 'toolwarden';
      import * as all from 'toolwarden/adapters';
      const ws = fs.mkdtempSync(path.join(os.tmpdir(), 'tw-no-frameworks-ws-'));
      const rt = await createRuntime({ sandbox: 'off', idleWorkers: 0 });
      const session = await rt.openSession({ workspaceRoot: ws, tools: ['read_file'] });
      const outcome = (promise) => promise.then((tools) => tools.map?.((t) => t.name) ?? Object.keys(tools), (error) => ({ name: error.name, code: error.code, message: error.message }));
      const out = {};
      for (const [subpath, name] of ${JSON.stringify(Object.entries(ADAPTER_OF))}) {
        out[subpath] = await outcome((await import('toolwarden/adapters/' + subpath))[name](session));
        out['adapters ' + subpath] = await outcome(all[name](session));
      }
      out.claude = (await import('toolwarden/adapters/claude-agent')).claudeAgentMcpServer(session).type;
      out.openai = (await all.openAITools(session, { api: 'chat' })).map((t) => t.function.name);
      await rt.close();
      fs.rmSync(ws, { recursive: true, force: true });
      process.stdout.write(JSON.stringify(out));
    `;
    fs.writeFileSync(path.join(project, 'call.mjs'), script);
    const { stdout } = await run(process.execPath, ['call.mjs'], { cwd: project });
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  it('gives FRAMEWORK_MISSING naming the package and the version range when an adapter is called without its framework', async () => {
    const peers = (JSON.parse(fs.readFileSync(path.join(project, 'node_modules/toolwarden/package.json'), 'utf8')) as { peerDependencies: Record<string, string> }).peerDependencies;
    const out = await callAdapters();
    for (const [subpath, framework] of Object.entries(FRAMEWORK_SUBPATHS)) {
      const expected = { name: 'ToolwardenError', code: 'FRAMEWORK_MISSING', message: expect.stringContaining(`npm install "${framework}@${peers[framework]}"`) };
      expect(out[subpath], subpath).toEqual(expected);
      expect(out[`adapters ${subpath}`], `adapters ${subpath}`).toEqual(expected);
    }
    expect(out).toMatchObject({ claude: 'sdk', openai: ['read_file'] });
  }, 300_000);

  it('passes on the error of a framework that is installed but fails to load, without calling it missing', async () => {
    const broken = path.join(project, 'node_modules/@openai/agents');
    fs.mkdirSync(broken, { recursive: true });
    fs.writeFileSync(path.join(broken, 'package.json'), JSON.stringify({ name: '@openai/agents', version: '0.14.1', type: 'module', exports: './index.js' }));
    fs.writeFileSync(path.join(broken, 'index.js'), "export * from 'a-dependency-npm-failed-to-install';\n");
    const out = await callAdapters();
    const raw = { name: 'Error', code: 'ERR_MODULE_NOT_FOUND', message: expect.stringContaining("'a-dependency-npm-failed-to-install'") };
    expect(out['openai-agents']).toEqual(raw);
    expect(out['adapters openai-agents']).toEqual(raw);
    expect(out['ai-sdk']).toMatchObject({ code: 'FRAMEWORK_MISSING' });
  }, 300_000);
});
