import { describe, expect, it } from 'vitest';
import { formatFigure } from '../../bench/format.js';
import { runRounds } from '../../bench/measure.js';
import { formatVerdicts } from '../../bench/report.js';
import { summarize } from '../../bench/stats.js';
import { againstLean, compareRow, leanOf, ratioOf } from '../../bench/targets.js';
import type { Figure, Row, ScenarioResult } from '../../bench/types.js';

const figure = (label: string, rounds: number[], unit: Figure['unit'] = 'ms'): Figure => ({ label, unit, summary: summarize(rounds), rounds });

describe('runRounds', () => {
  it('gives every candidate one turn a round, the order rotating by one each round', async () => {
    const order: string[] = [];
    const runner = (key: string) => async () => {
      order.push(key);
      return { calls: 2, latencies: [1, 2] };
    };
    let clock = 0;
    const turns = await runRounds({ a: runner('a'), b: runner('b'), c: runner('c') }, 3, { cpu: () => (clock += 10) });
    expect(order.join(' ')).toBe('a b c b c a c a b');
    expect(turns.a).toHaveLength(3);
    expect(turns.b[0]).toMatchObject({ calls: 2, latencies: [1, 2], cpuUs: 10 });
  });
});

describe('ratioOf', () => {
  it.each([
    ['pairs rounds and takes the median of their ratios', figure('a', [2, 4, 6]), figure('b', [1, 1, 3]), 2, [2, 4]],
    ['falls back to the ratio of headlines when rounds differ in number', figure('a', [2, 4, 6]), figure('b', [2, 2]), 2, undefined],
    ['takes a figure without rounds by its p50', { label: 'a', unit: 'ms', summary: summarize([3]) } as Figure, figure('b', [1, 1, 1]), 3, undefined],
  ])('%s', (_name, a, b, ratio, spread) => {
    expect(ratioOf(a, b)).toEqual(spread === undefined ? { ratio } : { ratio, spread });
  });
});

describe('formatFigure', () => {
  it.each([
    ['a latency: median, spread, pooled p99', figure('x', [0.2, 0.3, 0.25]), '0.250 ms [0.200..0.300], p99 0.300 ms'],
    ['CPU whose spread crosses into ms keeps the unit on that bound', figure('x', [9000, 5000, 12000], 'us'), '9000 us [5000..12.0 ms]'],
    ['a rate, no p99', figure('x', [1000, 2000, 1500], 'calls/s'), '1,500 calls/s [1,000..2,000]'],
  ])('%s', (_name, value, text) => {
    expect(formatFigure(value)).toBe(text);
  });
});

describe('formatVerdicts', () => {
  const goal = { kind: 'max', limit: 1 } as const;
  const missed = compareRow('tw', figure('tw', [3, 3, 3]), figure('base', [1, 1, 1]), goal);
  const scenario = (rows: Row[]): ScenarioResult => ({ id: 2, title: 't', notes: [], rows, seconds: 1 });

  it.each([
    ['a lean design meets it: the code is to fix', [missed, leanOf(missed, compareRow('lean', figure('lean', [0.5, 0.5, 0.5]), figure('base', [1, 1, 1]), goal))], /the code's to fix: lean 0\.50x meets it/],
    ['every lean design misses it too: beyond the design', [missed, leanOf(missed, compareRow('lean', figure('lean', [2, 2, 2]), figure('base', [1, 1, 1]), goal))], /beyond the design on this machine: lean 2\.00x misses it too/],
    ['the baseline is the lean design', [againstLean(missed)], /the baseline is the lean design itself/],
    ['nothing lean beside it', [missed], /no lean design measured next to it/],
  ])('%s', (_name, rows, verdict) => {
    const text = formatVerdicts([scenario(rows)]);
    expect(text).toMatch(verdict);
    // A lean design's row is context for its target, never a target of its own.
    expect(text).toMatch(/Targets: 0 met, 1 missed/);
  });
});
