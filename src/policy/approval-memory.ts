import type { PolicySubject } from './types.js';

/**
 * The `allow-always` answers of one session. {@link decide} consults it only for `ask` verdicts of calls
 * that are not dangerous, so a remembered answer never lifts a deny nor a dangerous removal.
 */
export class ApprovalMemory {
  readonly #keys = new Set<string>();

  /** Records an `allow-always` answer for a subject key (see {@link subjectKey}). */
  remember(key: string): void {
    this.#keys.add(key);
  }

  /** Whether an `allow-always` answer was given for this subject key. */
  has(key: string): boolean {
    return this.#keys.has(key);
  }
}

/**
 * The identity an `allow-always` answer is remembered under: the tool plus its set of paths (file tools),
 * its simple commands in order (bash), or the tool alone (MCP and other tools).
 * @example subjectKey({ tool: 'bash', kind: 'bash', commands: ['npm test'] }) // '["bash","bash",["npm test"]]'
 */
export function subjectKey(subject: PolicySubject): string {
  let items: string[] = [];
  if (subject.kind === 'file') items = [...new Set(subject.paths ?? [])].sort();
  else if (subject.kind === 'bash') items = (subject.commands ?? []).map((c) => c.trim().replace(/\s+/g, ' '));
  return JSON.stringify([subject.tool, subject.kind, items]);
}
