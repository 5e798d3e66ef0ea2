import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';
import { allSamples, REPO } from './doc-pages.js';
import type { DocSample } from './doc-samples.js';

/**
 * Every ts/js sample of the README and docs/*.md, and every shell block marked `run`, runs against the built package
 * (`import ... from 'toolwarden'` resolves through a node_modules link to this checkout, so to dist/ by its exports
 * map), in a temporary copy of WORKSPACE per page, all in one Node process (test/docs/sample-runner.mjs).
 */

/** What every page's workspace holds; samples may read these. */
const WORKSPACE: Record<string, string> = {
  'notes.txt': 'hello from notes\nsecond line\n',
  'src/greet.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
};
/** Samples that need what a test run cannot have (an API key, a framework's live model) are skipped, each saying why. */
const MAX_SKIPPED = 5;
const SAMPLE_TIMEOUT_MS = 30_000;
const RUNNER = path.join(REPO, 'test/docs/sample-runner.mjs');
/** `npx toolwarden` finds the local bin, as npx would, without npm's start-up (seconds on a busy machine). */
const NPX_SHORTCUT = 'npx() { if [ "$1" = toolwarden ]; then shift; toolwarden "$@"; else command npx "$@"; fi; }';

interface SampleResult {
  id: string;
  output: string;
  errors: string[];
  ms: number;
}

const samples = allSamples();
const idOf = (sample: DocSample): string => `${sample.page}:${sample.line}`;
const onPath = (command: string): boolean =>
  (process.env['PATH'] ?? '').split(path.delimiter).some((dir) => dir !== '' && fs.existsSync(path.join(dir, command)));
const missingOf = (sample: DocSample): string[] => sample.needs.filter((command) => !onPath(command));
const runnable = samples.filter((sample) => sample.mode === 'run' && missingOf(sample).length === 0);
const unrunnable = samples.filter((sample) => sample.mode === 'run' && missingOf(sample).length > 0);

let tree: TempTree;
let results = new Map<string, SampleResult>();
let runnerLog = '';

beforeAll(async () => {
  tree = makeTempTree('tw-doc-samples');
  linkPackages(tree.root);
  const plan = planSteps(tree.root);
  fs.writeFileSync(tree.at('plan.json'), JSON.stringify(plan));
  const env = { PATH: `${tree.at('node_modules/.bin')}${path.delimiter}${process.env['PATH'] ?? ''}`, npm_config_offline: 'true', npm_config_update_notifier: 'false' };
  const run = await execa(process.execPath, [RUNNER, tree.at('plan.json'), tree.at('results.json')], { env, reject: false, timeout: 300_000, all: true });
  runnerLog = `runner exit ${run.exitCode ?? run.signal}\n${(run.all ?? '').slice(-4000)}`;
  const list = fs.existsSync(tree.at('results.json')) ? (JSON.parse(fs.readFileSync(tree.at('results.json'), 'utf8')) as SampleResult[]) : [];
  results = new Map(list.map((result) => [result.id, result]));
}, 320_000);

afterAll(() => tree?.cleanup());

describe('the samples of the README and docs/', () => {
  it.each(runnable.map((sample) => [idOf(sample), sample] as const))('%s runs', (id, sample) => {
    const result = results.get(id);
    expect(result, `no result for ${id}; the runner said:\n${runnerLog}`).toBeDefined();
    expect(result!.errors, `${id} failed; it printed:\n${result!.output}`).toEqual([]);
    for (const text of sample.expects) expect(result!.output, `${id} should print '${text}'`).toContain(text);
    if (result!.output.trim() !== '' && sample.expects.length === 0) {
      expect.fail(`${id} prints but says nothing about what: add a '→ text' comment to its output line`);
    }
  });

  it.skip.each(unrunnable.map((sample) => [idOf(sample), missingOf(sample).join(', ')] as const))('%s needs %s, which is not installed', () => undefined);

  it(`skips at most ${MAX_SKIPPED} samples, each saying why`, () => {
    const skipped = samples.filter((sample) => sample.mode === 'skip');
    expect(skipped.length, `skipped: ${skipped.map(idOf).join(', ')}`).toBeLessThanOrEqual(MAX_SKIPPED);
    for (const sample of skipped) {
      expect(sample.skipReason, idOf(sample)).toMatch(/\S{3,}/);
      // Not run, but still read: a skipped sample must at least be valid TypeScript.
      const { diagnostics = [] } = ts.transpileModule(sample.code, { reportDiagnostics: true, compilerOptions: { module: ts.ModuleKind.ESNext } });
      expect(diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')), idOf(sample)).toEqual([]);
    }
  });
});

/** node_modules in the temp root: the checkout as `toolwarden`, and links to this checkout's dependencies. */
function linkPackages(root: string): void {
  const real = fs.realpathSync(path.join(REPO, 'node_modules'));
  const modules = path.join(root, 'node_modules');
  fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
  for (const name of fs.readdirSync(real)) {
    if (name !== '.bin' && !name.startsWith('.') && name !== 'toolwarden') fs.symlinkSync(path.join(real, name), path.join(modules, name));
  }
  for (const name of fs.readdirSync(path.join(real, '.bin'))) fs.symlinkSync(path.join(real, '.bin', name), path.join(modules, '.bin', name));
  fs.symlinkSync(REPO, path.join(modules, 'toolwarden'));
  // What npm install makes of the package's bin: an executable that runs the built CLI (tsc leaves main.js 0644).
  fs.writeFileSync(path.join(modules, '.bin', 'toolwarden'), `#!/bin/sh\nexec '${process.execPath}' '${path.join(REPO, 'dist/cli/main.js')}' "$@"\n`, { mode: 0o755 });
}

/** The runner's steps: per page, a fresh workspace; then its blocks in order (files written, samples run). */
function planSteps(root: string): unknown[] {
  const steps: unknown[] = [];
  const pages = [...new Set(samples.map((sample) => sample.page))];
  for (const page of pages) {
    const cwd = path.join(root, 'pages', page.replace(/[^\w.-]+/g, '_'));
    for (const [relative, content] of Object.entries(WORKSPACE)) steps.push({ kind: 'file', path: path.join(cwd, relative), content });
    for (const sample of samples.filter((s) => s.page === page)) {
      if (sample.mode === 'file') steps.push({ kind: 'file', path: path.join(cwd, sample.file!), content: sample.code });
      if (!runnable.includes(sample)) continue;
      if (sample.kind === 'shell') {
        steps.push({ kind: 'shell', id: idOf(sample), script: `${NPX_SHORTCUT}\n${sample.code}`, cwd, timeoutMs: SAMPLE_TIMEOUT_MS });
        continue;
      }
      const file = path.join(root, 'samples', `${page.replace(/[^\w.-]+/g, '_')}-${sample.line}.mjs`);
      const js = ts.transpileModule(sample.code, { fileName: file.replace(/\.mjs$/, '.ts'), compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, js);
      steps.push({ kind: 'module', id: idOf(sample), file, cwd, timeoutMs: SAMPLE_TIMEOUT_MS });
    }
  }
  return steps;
}
