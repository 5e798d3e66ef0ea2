/** One row of the demo: the call, whether it ran, and its code or the first line of its output. */
export interface DemoRow {
  call: string;
  outcome: 'allowed' | 'refused';
  detail: string;
  /** A remark about the environment (the OS sandbox is unavailable), printed once under the table. */
  note?: string;
}

const HEADER: Omit<DemoRow, 'outcome' | 'note'> & { outcome: string } = { call: 'CALL', outcome: 'OUTCOME', detail: 'CODE / FIRST LINE' };

/** Renders rows as an aligned plain-text table, cutting cells to `maxWidth` characters with an ellipsis. */
export function formatTable(rows: readonly DemoRow[], maxWidth = 80): string {
  const cut = (text: string, width: number): string => (text.length > width ? `${text.slice(0, width - 1)}…` : text);
  const all = [HEADER, ...rows].map((row) => ({ ...row, call: cut(row.call, 44), detail: cut(row.detail, maxWidth) }));
  const callWidth = Math.max(...all.map((row) => row.call.length));
  const outcomeWidth = Math.max(...all.map((row) => row.outcome.length));
  const lines = all.map((row) => `${row.call.padEnd(callWidth)}  ${row.outcome.padEnd(outcomeWidth)}  ${row.detail}`.trimEnd());
  lines.splice(1, 0, `${'-'.repeat(callWidth)}  ${'-'.repeat(outcomeWidth)}  ${'-'.repeat(17)}`);
  return `${lines.join('\n')}\n`;
}

/** The detail of a tool result: its code and message when refused, else the first non-empty line of its text. */
export function describeOutcome(result: { isError?: boolean; code?: string; content: { text: string }[] }): string {
  const text = result.content.map((c) => c.text).join('\n');
  if (result.isError) {
    const message = firstLine(text).replace(/^[A-Z_]+: /, '');
    return `${result.code ?? 'ERROR'}: ${message}`;
  }
  return firstLine(text);
}

function firstLine(text: string): string {
  return (text.split('\n').find((line) => line.trim() !== '') ?? '').trim().replace(/\s+/g, ' ');
}
