import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createChecker } from './checker.js';
import { CORPUS } from './corpus.js';
import { buildFixture } from './fixture.js';
import type { Generated } from './gen.js';
import { generate } from './grammar.js';
import { createBench, isEscape, judge, type Judgement } from './judge.js';

/** One escape: an allowed command that touched outside what the verdict allowed. */
export interface Escape {
  /** Where it came from: `corpus:<source>` or `seed:<S>#<index>`. */
  origin: string;
  /** The command with `@B@` for the fixture base. */
  template: string;
  command: string;
  violations: { syscall: string; kind: string; named: string; resolved: string; why: string; line: string }[];
  canaryChanges: string[];
  canaryRead: boolean;
}

/** Counts per tag: how often it was generated and how often the checker allowed it. */
export type Coverage = Record<string, { generated: number; allowed: number; asked: number; denied: number }>;

/** The result of a differential run. */
export interface DiffReport {
  seed: number;
  count: number;
  corpus: number;
  generated: number;
  allowed: number;
  asked: number;
  denied: number;
  ran: number;
  timedOut: number;
  sandboxErrors: string[];
  checkerErrors: { command: string; error: string }[];
  escapes: Escape[];
  harmless: number;
  overAsked: number;
  overDenied: number;
  overAskShapes: Record<string, { count: number; example: string; reason: string }>;
  coverage: Coverage;
  seconds: number;
}

/** Options of a differential run. */
export interface DiffOptions {
  seed: number;
  count: number;
  /** First generated index (to split a long run into chunks). */
  start?: number;
  /** Run the hand-collected corpus first. */
  withCorpus?: boolean;
  concurrency?: number;
  /** Seconds each allowed command may run. */
  seconds?: number;
  /** Only ask the checker (verdicts, coverage, over-asking), run nothing: no escapes are looked for. */
  verdictsOnly?: boolean;
  /** Only generated commands with a tag starting with this (`follow:`): the first `count` of them from `start` on. */
  tagged?: string;
  /** Called after every command (progress, incremental escape logging). */
  onEscape?: (e: Escape) => void;
  onProgress?: (done: number, total: number) => void;
}

interface Item {
  origin: string;
  template: string;
  gen: Generated | null;
}

/**
 * The differential check: for each command (corpus, then `count` generated from `seed`) the real checker's
 * verdict with the sandbox off; every allowed command runs for real in a sandbox over a fresh copy of the
 * hostile fixture, and every path it touched must lie inside what the verdict allowed.
 */
export async function runDifferential(opts: DiffOptions): Promise<DiffReport> {
  const started = Date.now();
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'twfz-')));
  const layout = buildFixture(path.join(root, 'base'));
  const bench = createBench(layout);
  const check = createChecker(layout);
  const start = opts.start ?? 0;
  const items: Item[] = [
    ...(opts.withCorpus ? CORPUS.map((c): Item => ({ origin: `corpus:${c.source}`, template: c.text, gen: null })) : []),
    ...generatedItems(opts.seed, start, opts.count, opts.tagged),
  ];
  const report: DiffReport = {
    seed: opts.seed, count: opts.count, corpus: opts.withCorpus ? CORPUS.length : 0, generated: items.length, allowed: 0, asked: 0, denied: 0, ran: 0, timedOut: 0,
    sandboxErrors: [], checkerErrors: [], escapes: [], harmless: 0, overAsked: 0, overDenied: 0, overAskShapes: {}, coverage: {}, seconds: 0,
  };
  const limits = { seconds: opts.seconds ?? 2, maxOutput: 65536 };
  let next = 0;
  let done = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as Item;
      const command = item.template.replaceAll('@B@', layout.base);
      let verdict: 'allow' | 'ask' | 'deny';
      let reason = '';
      try {
        const result = await check(command);
        verdict = result.verdict;
        reason = result.reasons[0] ?? '';
      } catch (error) {
        report.checkerErrors.push({ command: item.template, error: String(error) });
        verdict = 'ask';
      }
      report[verdict === 'allow' ? 'allowed' : verdict === 'ask' ? 'asked' : 'denied']++;
      const tags = item.gen?.tags ?? ['corpus'];
      for (const tag of tags) {
        const c = (report.coverage[tag] ??= { generated: 0, allowed: 0, asked: 0, denied: 0 });
        c.generated++;
        c[verdict === 'allow' ? 'allowed' : verdict === 'ask' ? 'asked' : 'denied']++;
      }
      if (item.gen?.harmless) {
        report.harmless++;
        if (verdict !== 'allow') {
          report[verdict === 'ask' ? 'overAsked' : 'overDenied']++;
          const key = `${verdict} ${item.gen.shape}`;
          const s = (report.overAskShapes[key] ??= { count: 0, example: item.template, reason: reason.replaceAll(layout.base, '@B@') });
          s.count++;
        }
      }
      if (verdict === 'allow' && !opts.verdictsOnly) {
        const j: Judgement = await judge(bench, command, limits);
        report.ran++;
        if (j.timedOut) report.timedOut++;
        if (j.error !== undefined && report.sandboxErrors.length < 20) report.sandboxErrors.push(`${item.template}: ${j.error}`);
        if (isEscape(j)) {
          const escape: Escape = {
            origin: item.origin,
            template: item.template,
            command,
            violations: mostSevere(j.violations).slice(0, 5).map((v) => ({ ...v, named: v.named.replaceAll(layout.base, '@B@'), resolved: v.resolved.replaceAll(layout.base, '@B@'), line: v.line.replaceAll(layout.base, '@B@').slice(0, 300) })),
            canaryChanges: j.canaryChanges,
            canaryRead: j.canaryRead,
          };
          report.escapes.push(escape);
          opts.onEscape?.(escape);
        }
      }
      opts.onProgress?.(++done, items.length);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency ?? 1) }, worker));
  fs.rmSync(bench.scratchRoot, { recursive: true, force: true });
  fs.rmSync(root, { recursive: true, force: true });
  report.seconds = Math.round((Date.now() - started) / 100) / 10;
  return report;
}

// Past this many commands drawn per one kept, a tag is too rare to fill a tagged run: it ends short.
const MAX_DRAWS_PER_KEPT = 200;

function generatedItems(seed: number, start: number, count: number, tagged: string | undefined): Item[] {
  const items: Item[] = [];
  for (let i = start; items.length < count && i < start + count * (tagged === undefined ? 1 : MAX_DRAWS_PER_KEPT); i++) {
    const gen = generate(seed, i);
    if (tagged !== undefined && !gen.tags.some((t) => t.startsWith(tagged))) continue;
    items.push({ origin: `seed:${seed}#${i}`, template: gen.text, gen });
  }
  return items;
}

const SEVERITY: Record<string, number> = { write: 0, exec: 1, read: 2, meta: 3 };

/** Violations ordered writes first, then executions, reads, metadata: the first one is the one to report. */
export function mostSevere<T extends { kind: string }>(violations: readonly T[]): T[] {
  return [...violations].sort((a, b) => (SEVERITY[a.kind] ?? 9) - (SEVERITY[b.kind] ?? 9));
}

/** A one-line description of an escape: the command and the first syscall or canary evidence. */
export function describeEscape(e: Escape): string {
  const v = mostSevere(e.violations)[0];
  const evidence = v ? `${v.syscall} ${v.resolved} (${v.why})` : e.canaryChanges[0] ?? (e.canaryRead ? 'the canary appeared in the output' : '');
  return `${JSON.stringify(e.template)} -> ${evidence}`;
}
