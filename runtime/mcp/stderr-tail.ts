const MAX_LINES = 20;
const MAX_LINE_CHARS = 500;

/** Keeps the last lines a stdio MCP server wrote to stderr, so they can explain a failure without spamming the host. */
export class StderrTail {
  #lines: string[] = [];
  #partial = '';

  /** Adds a chunk of stderr output. */
  push(chunk: Buffer | string): void {
    const parts = (this.#partial + chunk.toString()).split(/\r?\n/);
    this.#partial = (parts.pop() ?? '').slice(-MAX_LINE_CHARS);
    for (const line of parts) if (line.trim() !== '') this.#lines.push(line.slice(0, MAX_LINE_CHARS));
    if (this.#lines.length > MAX_LINES) this.#lines.splice(0, this.#lines.length - MAX_LINES);
  }

  /** The kept lines (and an unfinished last line), joined; '' when nothing was written. */
  text(): string {
    const lines = this.#partial.trim() === '' ? this.#lines : [...this.#lines, this.#partial];
    return lines.join('\n');
  }
}
