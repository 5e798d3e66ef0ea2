// `npm run bench`: runs the scenarios of issue 8, prints a table per scenario, writes JSON and SVG charts.
// Each scenario runs in a process of its own (see isolate.ts); `--result-file` marks such a child.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, type BenchArgs } from './args.js';
import { sizesFor } from './config.js';
import { runIsolated } from './isolate.js';
import { repoPath } from './paths.js';
import { progress } from './progress.js';
import { formatHeader, formatScenario, formatVerdicts, writeResults } from './report.js';
import { SCENARIOS } from './scenarios/index.js';
import { scenarioById, scenarioIds } from './scenarios/select.js';
import type { Scenario, ScenarioContext } from './scenarios/scenario.js';
import type { RunHeader, ScenarioResult } from './types.js';

async function main(): Promise<number> {
  let args: BenchArgs;
  try {
    args = parseArgs(process.argv.slice(2), scenarioIds(SCENARIOS));
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    return 2;
  }
  return args.resultFile ? runChild(args, args.resultFile) : runParent(args);
}

async function runParent(args: BenchArgs): Promise<number> {
  const header: RunHeader = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.availableParallelism(),
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown cpu',
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    totalMemoryMb: Math.round(os.totalmem() / 1024 / 1024),
    quick: args.quick,
    scenarios: args.scenarios,
  };
  process.stdout.write(`${formatHeader(header)}\n`);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwarden-bench-'));
  const results: ScenarioResult[] = [];
  try {
    for (const id of args.scenarios) {
      const result = await runIsolated(id, args.quick, scratch);
      if (result.skipped?.startsWith('crashed')) process.stdout.write(formatScenario(result));
      results.push(result);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`${formatVerdicts(results)}\n`);
  const written = writeResults({ header, scenarios: results }, args.outDir ? path.resolve(args.outDir) : repoPath('bench/results'));
  process.stdout.write(`\nwrote ${written.map((file) => path.relative(process.cwd(), file)).join(', ')}\n`);
  return results.some((result) => result.skipped?.startsWith('crashed')) ? 1 : 0;
}

async function runChild(args: BenchArgs, resultFile: string): Promise<number> {
  const [id, ...more] = args.scenarios;
  if (id === undefined || more.length > 0) return 2;
  const scenario = scenarioById(SCENARIOS, id);
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwarden-bench-'));
  try {
    const context = { quick: args.quick, sizes: sizesFor(args.quick), scratch, progress: (message: string) => progress(`scenario ${scenario.id}: ${message}`) };
    const result = await runScenario(scenario, context);
    process.stdout.write(formatScenario(result));
    fs.writeFileSync(resultFile, JSON.stringify(result));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return 0;
}

// A scenario that throws is reported as crashed; the run goes on with the next one.
async function runScenario(scenario: Scenario, context: ScenarioContext): Promise<ScenarioResult> {
  context.progress('starting');
  const started = performance.now();
  const base = { id: scenario.id, title: scenario.title };
  try {
    const outcome = await scenario.run(context);
    return { ...base, ...outcome, seconds: (performance.now() - started) / 1000 };
  } catch (error) {
    const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { ...base, rows: [], notes: [], skipped: `crashed: ${reason}`, seconds: (performance.now() - started) / 1000 };
  }
}

process.exitCode = await main();
