import fs from 'node:fs';
import type { DiffReport } from './run.js';
import { summarize } from './summary.js';

/** Sums the reports of several chunks (counts, coverage, over-asking shapes; escapes and errors concatenated). */
export function mergeReports(reports: readonly DiffReport[]): DiffReport {
  const out: DiffReport = {
    seed: reports[0]?.seed ?? 0, count: 0, corpus: 0, generated: 0, allowed: 0, asked: 0, denied: 0, ran: 0, timedOut: 0, sandboxErrors: [], checkerErrors: [],
    escapes: [], harmless: 0, overAsked: 0, overDenied: 0, overAskShapes: {}, coverage: {}, seconds: 0,
  };
  for (const r of reports) {
    for (const key of ['count', 'corpus', 'generated', 'allowed', 'asked', 'denied', 'ran', 'timedOut', 'harmless', 'overAsked', 'overDenied', 'seconds'] as const) out[key] += r[key];
    out.sandboxErrors.push(...r.sandboxErrors);
    out.checkerErrors.push(...r.checkerErrors);
    out.escapes.push(...r.escapes);
    for (const [tag, c] of Object.entries(r.coverage)) {
      const m = (out.coverage[tag] ??= { generated: 0, allowed: 0, asked: 0, denied: 0 });
      m.generated += c.generated;
      m.allowed += c.allowed;
      m.asked += c.asked;
      m.denied += c.denied;
    }
    for (const [shape, s] of Object.entries(r.overAskShapes)) {
      const m = (out.overAskShapes[shape] ??= { ...s, count: 0 });
      m.count += s.count;
    }
  }
  out.seconds = Math.round(out.seconds * 10) / 10;
  return out;
}

// node dist/fuzz/shell/aggregate.js OUT_PREFIX REPORT.json...: writes OUT_PREFIX.json and OUT_PREFIX.txt for chunked runs.
if (process.argv[1]?.endsWith('aggregate.js')) {
  const [prefix, ...files] = process.argv.slice(2);
  if (prefix === undefined || files.length === 0) {
    console.error('usage: aggregate.js OUT_PREFIX REPORT.json...');
    process.exit(2);
  }
  const merged = mergeReports(files.map((f) => JSON.parse(fs.readFileSync(f, 'utf8')) as DiffReport));
  fs.writeFileSync(`${prefix}.json`, `${JSON.stringify(merged, null, 2)}\n`);
  const text = summarize(merged);
  fs.writeFileSync(`${prefix}.txt`, `${text}\n`);
  console.log(text);
}
