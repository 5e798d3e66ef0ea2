// Runs the docs' samples one after another in this one process (see test/docs/samples.test.ts), so the samples share
// one Node start and one load of the built package. Usage: node sample-runner.mjs PLAN.json RESULTS.json
// A step is { kind: 'file', path, content } | { kind: 'module', id, file, cwd, timeoutMs } | { kind: 'shell', id,
// script, cwd, timeoutMs }. After each run step the results so far are written, so a hang still reports the rest.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format } from 'node:util';

const [planFile, resultFile] = process.argv.slice(2);
const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
const results = [];
let current;
// A sample's stray rejection or throw belongs to the sample running when it surfaces.
const strayError = (error) => current?.errors.push(`uncaught: ${error?.stack ?? String(error)}`);
process.on('unhandledRejection', strayError);
process.on('uncaughtException', strayError);

const original = { log: console.log, info: console.info, dir: console.dir };
for (const step of plan) {
  if (step.kind === 'file') {
    fs.mkdirSync(path.dirname(step.path), { recursive: true });
    fs.writeFileSync(step.path, step.content);
    continue;
  }
  current = { id: step.id, output: '', errors: [], ms: 0 };
  const started = Date.now();
  if (step.kind === 'shell') {
    const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', step.script], { cwd: step.cwd, encoding: 'utf8', input: '', timeout: step.timeoutMs });
    current.output = run.stdout ?? '';
    if (run.status !== 0) current.errors.push(`exit ${run.status ?? run.signal}${run.error ? ` (${run.error.message})` : ''}: ${run.stderr}`);
  } else {
    const capture = (...args) => {
      current.output += `${format(...args)}\n`;
    };
    Object.assign(console, { log: capture, info: capture, dir: capture });
    process.chdir(step.cwd);
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${step.timeoutMs} ms`)), step.timeoutMs);
    });
    try {
      await Promise.race([import(pathToFileURL(step.file).href), timeout]);
    } catch (error) {
      current.errors.push(error?.stack ?? String(error));
    } finally {
      clearTimeout(timer);
      Object.assign(console, original);
    }
  }
  current.ms = Date.now() - started;
  results.push(current);
  fs.writeFileSync(resultFile, JSON.stringify(results));
}
// A sample that left a runtime open would keep the process alive; every result is written by now.
process.exit(0);
