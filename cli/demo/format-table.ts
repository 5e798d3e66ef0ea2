/** One row of the demo: the call, how it ended, and its full reason or the first line of its output. */
export interface DemoRow {
  call: string;
  /** `approved`: the rules asked and the demo's scripted approver allowed it. */
  outcome: 'allowed' | 'approved' | 'refused';
  detail: string;
  /** The `ask` the scripted approver answered during the call, if any. */
  approval?: { reason: string; answer: string };
  /** A remark about the environment (the OS sandbox is unavailable), printed once under the table. */
  note?: string;
}

const HEADER = { call: 'CALL', outcome: 'OUTCOME', detail: 'CODE AND REASON / FIRST LINE OF OUTPUT' } as const;

/** The width the demo wraps to: `columns` (`process.stdout.columns`), or 100 when stdout is not a terminal. */
export function terminalWidth(columns: number | undefined): number {
  return columns !== undefined && columns > 0 ? columns : 100;
}

/**
 * Renders rows as an aligned plain-text table `width` characters wide. The detail is never cut: it wraps at word
 * boundaries under its own column, or (after its first word) on indented lines below the row when that column would
 * be narrower than 30.
 */
export function formatTable(rows: readonly DemoRow[], width = 100): string {
  const all = [HEADER, ...rows];
  const callWidth = Math.max(...all.map((row) => row.call.length));
  const outcomeWidth = Math.max(...all.map((row) => row.outcome.length));
  const column = callWidth + outcomeWidth + 4;
  const hanging = width - column < 30;
  const lines: string[] = [];
  lines.push(`${HEADER.call.padEnd(callWidth)}  ${HEADER.outcome.padEnd(outcomeWidth)}  ${HEADER.detail}`);
  lines.push(`${'-'.repeat(callWidth)}  ${'-'.repeat(outcomeWidth)}  ${'-'.repeat(Math.min(HEADER.detail.length, Math.max(1, width - column)))}`);
  for (const row of rows) {
    const head = `${row.call.padEnd(callWidth)}  ${row.outcome.padEnd(outcomeWidth)}  `;
    // Hanging: only the first word (a refusal's code) stays on the row, the rest wraps on its own lines.
    const [first = '', ...rest] = hanging ? row.detail.trim().split(/\s+/) : wrapWords(row.detail, Math.max(20, width - column));
    const more = hanging ? wrapWords(rest.join(' '), Math.max(20, width - 4)).filter((line) => line !== '') : rest;
    const indent = ' '.repeat(hanging ? 4 : column);
    lines.push(`${head}${first}`.trimEnd(), ...more.map((line) => `${indent}${line}`));
  }
  return `${lines.join('\n')}\n`;
}

/** Splits text into lines of at most `width` characters at spaces; a longer word gets a line of its own. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line === '') line = word;
    else if (line.length + 1 + word.length <= width) line += ` ${word}`;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** The detail of a tool result: its code and whole message when refused, else the first non-empty line of its text. */
export function describeOutcome(result: { isError?: boolean; code?: string; content: { text: string }[] }): string {
  const text = result.content.map((c) => c.text).join('\n');
  if (result.isError) {
    const code = result.code ?? 'ERROR';
    // errorResult's text starts with the code the result carries; show it once.
    const message = oneLine(text);
    return message.startsWith(`${code}: `) ? message : `${code}: ${message}`;
  }
  return oneLine(text.split('\n').find((line) => line.trim() !== '') ?? '');
}

function oneLine(text: string): string {
  return text.trim().replace(/\s+/g, ' ');
}
