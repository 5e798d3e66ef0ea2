import fs from 'node:fs';
import path from 'node:path';
import { formatMet, formatRatio, formatTargetActual, formatValue } from './format.js';
import { renderScenarioSvg } from './svg-chart.js';
import type { Figure, Row, RunHeader, RunResults, ScenarioResult } from './types.js';

/** The header lines: machine, Node version, date and mode. */
export function formatHeader(header: RunHeader): string {
  return [
    `toolwarden bench  ${header.date}`,
    `node ${header.node}, ${header.cores} cores (${header.cpu}), ${header.platform}, ${Math.round(header.totalMemoryMb / 1024)} GB RAM`,
    `mode: ${header.quick ? 'quick (scaled-down sizes and rounds, a smoke check)' : 'full'}; scenarios ${header.scenarios.join(', ')}`,
    'every figure: p50 / p99 over repeated rounds, next to its baseline from this run; ratio = figure p50 / baseline p50',
  ].join('\n');
}

/** One scenario as a text table (row, figure, baseline, ratio, target, met?) followed by its notes. */
export function formatScenario(result: ScenarioResult): string {
  const title = `\n== Scenario ${result.id}: ${result.title} (${result.seconds.toFixed(1)} s)`;
  if (result.skipped) return `${title}\nskipped: ${result.skipped}\n`;
  const header = ['', 'figure p50 / p99', 'baseline p50 / p99', 'ratio', 'target', 'met?'];
  const lines = result.rows.map((row) => [row.name, formatFigure(row.figure), row.baseline ? formatFigure(row.baseline) : '-', formatRatio(row.ratio), formatTarget(row), formatMet(row.target)]);
  const table = alignColumns([header, ...lines]);
  return [title, ...table, ...result.notes.map((note) => `  note: ${note}`), ''].join('\n');
}

/** Every target of the run with its verdict, missed ones first. */
export function formatVerdicts(results: readonly ScenarioResult[]): string {
  const targeted = results.flatMap((result) => result.rows.filter((row) => row.target).map((row) => ({ id: result.id, row })));
  const missed = targeted.filter(({ row }) => !row.target?.met);
  const lines = [`\n== Targets: ${targeted.length - missed.length} met, ${missed.length} missed`];
  for (const { id, row } of [...missed, ...targeted.filter(({ row }) => row.target?.met)]) {
    lines.push(`  [${formatMet(row.target)}] scenario ${id}: ${row.name}: ${formatTarget(row)}${row.ratio === undefined ? '' : `, ratio ${formatRatio(row.ratio)}`}`);
  }
  const skipped = results.filter((result) => result.skipped);
  for (const result of skipped) lines.push(`  [skipped] scenario ${result.id}: ${result.skipped}`);
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

function formatFigure(figure: Figure): string {
  const { p50, p99, n } = figure.summary;
  return n <= 1 ? formatValue(p50, figure.unit) : `${formatValue(p50, figure.unit)} / ${formatValue(p99, figure.unit)}`;
}

function formatTarget(row: Row): string {
  if (!row.target) return '-';
  return row.target.measure === 'ratio' ? row.target.text : `${row.target.text} (is ${formatTargetActual(row.target, row.figure.unit)})`;
}

function alignColumns(rows: readonly string[][]): string[] {
  const widths = rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  return rows.map((row) => `  ${row.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ').trimEnd()}`);
}
