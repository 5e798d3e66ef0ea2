import { formatMet, formatRatio, formatValue } from './format.js';
import { headline } from './stats.js';
import type { Figure, Row, ScenarioResult } from './types.js';

const MIN_WIDTH = 1000;
const LABEL_WIDTH = 400;
const LABEL_CHARS = 60;
const BAR_AREA = 420;
// Approximate advance of a 15px semibold sans-serif character, to size the chart to its title.
const TITLE_CHAR_WIDTH = 8.6;
const BAR_HEIGHT = 13;
const BAR_GAP = 3;
const PANEL_HEADER = 22;
const PANEL_GAP = 14;
const TOP = 58;
const COLORS = { figureP50: '#2563eb', figureP99: '#93c5fd', baselineP50: '#4b5563', baselineP99: '#c7cbd1' } as const;

interface Bar {
  label: string;
  value: number;
  color: string;
}

/**
 * Draws one scenario as a standalone SVG: a panel per row with bars of p50 and p99 for the figure and its
 * baseline, on the panel's own linear scale, and the ratio, target and verdict in the panel's title.
 */
export function renderScenarioSvg(result: ScenarioResult): string {
  const panels: string[] = [];
  let y = TOP;
  for (const row of result.rows) {
    const bars = barsOf(row);
    panels.push(renderPanel(row, bars, y));
    y += PANEL_HEADER + bars.length * (BAR_HEIGHT + BAR_GAP) + PANEL_GAP;
  }
  if (result.skipped) {
    panels.push(`<text x="16" y="${y + 14}" class="note">skipped: ${escapeXml(result.skipped)}</text>`);
    y += 30;
  }
  const height = y + 10;
  const title = `Scenario ${result.id}: ${result.title}`;
  const width = Math.max(MIN_WIDTH, Math.ceil(title.length * TITLE_CHAR_WIDTH) + 32);
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="12">`,
    '<style>.title{font-size:15px;font-weight:600}.head{font-weight:600}.note{fill:#555}.met{fill:#15803d;font-weight:600}.missed{fill:#b91c1c;font-weight:600}.value{fill:#222}</style>',
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="16" y="24" class="title">${escapeXml(title)}</text>`,
    renderLegend(),
    ...panels,
    '</svg>',
    '',
  ].join('\n');
}

function barsOf(row: Row): Bar[] {
  const bars = barsOfFigure(row.figure, COLORS.figureP50, COLORS.figureP99);
  return row.baseline ? [...bars, ...barsOfFigure(row.baseline, COLORS.baselineP50, COLORS.baselineP99)] : bars;
}

function barsOfFigure(figure: Figure, p50Color: string, p99Color: string): Bar[] {
  if (figure.summary.n <= 1 || figure.unit !== 'ms') return [{ label: figure.label, value: headline(figure), color: p50Color }];
  return [
    { label: `${figure.label} p50`, value: headline(figure), color: p50Color },
    { label: `${figure.label} p99`, value: figure.summary.p99, color: p99Color },
  ];
}

function renderPanel(row: Row, bars: Bar[], top: number): string {
  const scale = Math.max(...bars.map((bar) => (Number.isFinite(bar.value) ? bar.value : 0)), Number.MIN_VALUE);
  // SVG collapses leading spaces in text, so the parts of a panel title are set apart with dx.
  const ratio = row.ratio === undefined ? '' : `<tspan dx="12" class="note">${escapeXml(`ratio ${formatRatio(row.ratio)}`)}</tspan>`;
  const target = row.target
    ? `<tspan dx="12" class="note">${escapeXml(`target ${row.target.text}:`)}</tspan><tspan dx="6" class="${row.target.met ? 'met' : 'missed'}">${formatMet(row)}</tspan>`
    : '';
  const parts = [`<text x="16" y="${top + 14}" class="head">${escapeXml(row.name)}${ratio}${target}</text>`];
  bars.forEach((bar, index) => {
    const y = top + PANEL_HEADER + index * (BAR_HEIGHT + BAR_GAP);
    const width = Number.isFinite(bar.value) ? Math.max(1, (bar.value / scale) * BAR_AREA) : 0;
    parts.push(
      `<text x="${LABEL_WIDTH - 8}" y="${y + BAR_HEIGHT - 2}" text-anchor="end" class="note">${escapeXml(truncate(bar.label, LABEL_CHARS))}</text>`,
      `<rect x="${LABEL_WIDTH}" y="${y}" width="${width.toFixed(1)}" height="${BAR_HEIGHT}" fill="${bar.color}"/>`,
      `<text x="${(LABEL_WIDTH + width + 6).toFixed(1)}" y="${y + BAR_HEIGHT - 2}" class="value">${escapeXml(formatValue(bar.value, row.figure.unit))}</text>`,
    );
  });
  return `<g>${parts.join('')}</g>`;
}

function renderLegend(): string {
  const items: [string, string][] = [
    [COLORS.figureP50, 'figure p50'],
    [COLORS.figureP99, 'figure p99'],
    [COLORS.baselineP50, 'baseline p50'],
    [COLORS.baselineP99, 'baseline p99'],
  ];
  return items
    .map(([color, label], index) => {
      const x = 16 + index * 130;
      return `<rect x="${x}" y="36" width="12" height="12" fill="${color}"/><text x="${x + 17}" y="46" class="note">${label}</text>`;
    })
    .join('');
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}
