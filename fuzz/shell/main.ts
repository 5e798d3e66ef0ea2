import fs from 'node:fs';
import path from 'node:path';
import { describeEscape, runDifferential } from './run.js';
import { sandboxAvailable } from './sandbox.js';
import { summarize } from './summary.js';

// npm run fuzz:shell -- --count N --seed S [--start K] [--concurrency C] [--seconds T] [--out DIR] [--no-corpus] [--verdicts-only]
//   [--tagged PREFIX] (only generated commands with a tag starting with PREFIX, e.g. follow: for options that follow links)
const argv = process.argv.slice(2);
const flag = (name: string, fallback: string): string => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] !== undefined ? (argv[i + 1] as string) : fallback;
};
const num = (name: string, fallback: number): number => {
  const value = Number(flag(name, String(fallback)));
  if (!Number.isInteger(value) || value < 0) {
    console.error(`--${name} must be a non-negative integer`);
    process.exit(2);
  }
  return value;
};

const verdictsOnly = argv.includes('--verdicts-only');
const available = sandboxAvailable();
if (!available.ok && !verdictsOnly) {
  console.error(`fuzz:shell needs bubblewrap and strace: ${available.why}`);
  process.exit(2);
}
const seed = num('seed', 1);
const count = num('count', 1000);
const start = num('start', 0);
const out = path.resolve(flag('out', 'fuzz-report'));
fs.mkdirSync(out, { recursive: true });
const base = `shell-diff-seed${seed}-from${start}-n${count}`;
const live = path.join(out, `${base}.escapes.jsonl`);
fs.writeFileSync(live, '');
let last = 0;
const report = await runDifferential({
  seed,
  count,
  start,
  withCorpus: !argv.includes('--no-corpus'),
  concurrency: num('concurrency', 1),
  seconds: num('seconds', 2),
  verdictsOnly,
  ...(argv.includes('--tagged') ? { tagged: flag('tagged', '') } : {}),
  onEscape: (e) => {
    fs.appendFileSync(live, `${JSON.stringify(e)}\n`);
    console.log(`ESCAPE ${describeEscape(e)}`);
  },
  onProgress: (done, total) => {
    if (Date.now() - last > 30_000) {
      last = Date.now();
      console.log(`${done}/${total}`);
    }
  },
});
fs.writeFileSync(path.join(out, `${base}.json`), `${JSON.stringify(report, null, 2)}\n`);
const text = summarize(report);
fs.writeFileSync(path.join(out, `${base}.txt`), `${text}\n`);
console.log(text);
process.exitCode = report.escapes.length > 0 ? 1 : 0;
