import fs from 'node:fs';
import path from 'node:path';
import { formatCpu, formatFigure, formatMet, formatRatio, formatRowRatio, formatTargetActual } from './format.js';
import { renderScenarioSvg } from './svg-chart.js';
import type { Row, RunHeader, RunResults, ScenarioResult } from './types.js';

/** The header lines: machine, Node version, date and mode. */
export function formatHeader(header: RunHeader): string {
  return [
    `toolwarden bench  ${header.date}`,
    `node ${header.node}, ${header.cores} cores (${header.cpu}), ${header.platform}, ${Math.round(header.totalMemoryMb / 1024)} GB RAM`,
    `mode: ${header.quick ? 'quick (scaled-down sizes and rounds, a smoke check)' : 'full'}; scenarios ${header.scenarios.join(', ')}`,
    'candidates take turns within each round; a figure is the median of its rounds [lowest..highest round], latencies with the p99 of every call',
    'cpu/call: CPU of every thread of the process (and of the servers a scenario starts) over a turn, per call; ratio: median of the per-round ratios [spread]',
  ].join('\n');
}

/** One scenario as a text table (row, figure, CPU, baseline, CPU, ratio, target, met?) followed by its notes. */
export function formatScenario(result: ScenarioResult): string {
  const title = `\n== Scenario ${result.id}: ${result.title} (${result.seconds.toFixed(1)} s)`;
  if (result.skipped) return `${title}\nskipped: ${result.skipped}\n`;
  const header = ['', 'figure', 'cpu/call', 'baseline', 'cpu/call', 'ratio', 'target', 'met?'];
  const lines = result.rows.map((row) => [
    row.leanFor === undefined ? row.name : `  ↳ ${row.name}`,
    formatFigure(row.figure),
    formatCpu(row.figure),
    row.baseline ? formatFigure(row.baseline) : '-',
    row.baseline ? formatCpu(row.baseline) : '-',
    row.ratio === undefined ? '-' : formatRowRatio(row),
    formatTarget(row),
    formatMet(row),
  ]);
  const table = alignColumns([header, ...lines]);
  return [title, ...table, ...result.notes.map((note) => `  note: ${note}`), ''].join('\n');
}

/**
 * Every target of the run with its verdict, missed ones first; a miss says whether the lean design next to it meets
 * the target (the code's to fix) or misses it too (beyond the design on this machine).
 */
export function formatVerdicts(results: readonly ScenarioResult[]): string {
  const targeted = results.flatMap((result) => result.rows.filter((row) => row.target && row.leanFor === undefined).map((row) => ({ result, row })));
  const missed = targeted.filter(({ row }) => !row.target?.met);
  const lines = [`\n== Targets: ${targeted.length - missed.length} met, ${missed.length} missed`];
  for (const { result, row } of [...missed, ...targeted.filter(({ row }) => row.target?.met)]) {
    const actual = row.ratio === undefined ? '' : `, ratio ${formatRatio(row.ratio)}`;
    const reach = row.target?.met ? '' : `; ${formatReach(row, result.rows.filter((lean) => lean.leanFor === row.name))}`;
    lines.push(`  [${formatMet(row)}] scenario ${result.id}: ${row.name}: ${formatTarget(row)}${actual}${reach}`);
  }
  for (const result of results.filter((candidate) => candidate.skipped)) lines.push(`  [skipped] scenario ${result.id}: ${result.skipped}`);
  return lines.join('\n');
}

/** Writes `<timestamp>.json` and one `<timestamp>-scenario-<id>.svg` per scenario into `dir`; returns the paths. */
export function writeResults(results: RunResults, dir: string): string[] {
  fs.mkdirSync(dir, { recursive: true });
  const stamp = results.header.date.replaceAll(':', '-').replace(/\.\d+Z$/, 'Z');
  const json = path.join(dir, `${stamp}.json`);
  fs.writeFileSync(json, `${JSON.stringify(results, null, 2)}\n`);
  const svgs = results.scenarios.map((scenario) => {
    const file = path.join(dir, `${stamp}-scenario-${scenario.id}.svg`);
    fs.writeFileSync(file, renderScenarioSvg(scenario));
    return file;
  });
  return [json, ...svgs];
}

function formatReach(row: Row, leans: readonly Row[]): string {
  if (row.leanBaseline) return "the baseline is the lean design itself, so the miss is the code's";
  const describe = (lean: Row): string => `${lean.name} ${lean.target ? formatTargetActual(lean.target, lean.figure.unit) : '?'}`;
  const meeting = leans.filter((lean) => lean.target?.met);
  if (meeting.length > 0) return `the code's to fix: ${meeting.map(describe).join(', ')} ${meeting.length === 1 ? 'meets' : 'meet'} it`;
  if (leans.length > 0) return `beyond the design on this machine: ${leans.map(describe).join(', ')} ${leans.length === 1 ? 'misses' : 'miss'} it too`;
  return 'no lean design measured next to it';
}

function formatTarget(row: Row): string {
  if (!row.target) return '-';
  return row.target.measure === 'ratio' ? row.target.text : `${row.target.text} (is ${formatTargetActual(row.target, row.figure.unit)})`;
}

function alignColumns(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}`);
}
