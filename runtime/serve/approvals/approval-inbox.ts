import { randomUUID } from 'node:crypto';
import type { ApprovalOption } from '../../../src/policy/types.js';
import type { ApprovalRequest } from '../../policy/policy-gate.js';
import { approvalSubject } from './approval-subject.js';

/** A pending approval as the dashboard shows it. Times are epoch milliseconds. */
export interface InboxItem {
  readonly id: string;
  readonly sessionId: string;
  readonly user: string | undefined;
  readonly tool: string;
  /** Our reason, naming the rule that asked. */
  readonly reason: string;
  /** What the call would do, quoted and bounded ({@link approvalSubject}). */
  readonly subject: string;
  readonly dangerous: boolean;
  /** The answers that may be given: never `allow-always` for a dangerous removal. */
  readonly options: readonly ApprovalOption[];
  readonly askedAt: number;
  /** When the wait ends and the call is refused: the sooner of the approval's wait and the call's own deadline. */
  readonly deadline: number;
  /** Which of the two ends the wait: `approvalTimeoutMs` (APPROVAL_DENIED) or the call's `toolTimeoutMs` (TIMEOUT). */
  readonly endsBy: WaitEnd;
}

/** What ends an approval's wait: its own timeout, or its call's deadline coming first. */
export type WaitEnd = 'approvalTimeoutMs' | 'toolTimeoutMs';

/** How long a call's question waits, and what ends it then. */
export interface ApprovalWait {
  readonly ms: number;
  readonly endsBy: WaitEnd;
}

/** The wait of a question asked with `callTimeLeftMs` left of its call, under an approval timeout of `approvalTimeoutMs`. */
export function approvalWait(approvalTimeoutMs: number, callTimeLeftMs: number | undefined): ApprovalWait {
  const callLeft = callTimeLeftMs ?? Infinity;
  return callLeft < approvalTimeoutMs ? { ms: callLeft, endsBy: 'toolTimeoutMs' } : { ms: approvalTimeoutMs, endsBy: 'approvalTimeoutMs' };
}

/** An entry's hold on the inbox: the answer when one comes, and the withdrawal when the race is over. */
export interface InboxTicket {
  readonly id: string;
  /** Resolves with the operator's answer (unchecked: the race checks it against the options). */
  readonly answer: Promise<unknown>;
  /** Takes the entry down; idempotent. */
  withdraw(): void;
}

/**
 * The dashboard's approval inbox: pending `ask` decisions an operator may answer. An entry is there from the moment
 * the call asks until it is answered (here or elsewhere), its wait ends, or its call ends; listeners hear each change.
 */
export class ApprovalInbox {
  readonly #entries = new Map<string, { item: InboxItem; resolve: (answer: unknown) => void }>();
  readonly #listeners = new Set<() => void>();

  /** Puts a call's question in the inbox for its wait (its deadline is shown; the race and the call enforce it). */
  add(request: ApprovalRequest, wait: ApprovalWait): InboxTicket {
    const id = randomUUID();
    const askedAt = Date.now();
    let resolve: (answer: unknown) => void = () => undefined;
    const answer = new Promise<unknown>((done) => (resolve = done));
    const item: InboxItem = {
      id,
      sessionId: request.sessionId,
      user: request.user,
      tool: request.tool,
      reason: request.reason,
      subject: approvalSubject(request),
      dangerous: request.dangerous,
      options: [...request.options],
      askedAt,
      deadline: askedAt + wait.ms,
      endsBy: wait.endsBy,
    };
    this.#entries.set(id, { item, resolve });
    this.#changed();
    return { id, answer, withdraw: () => this.#remove(id) };
  }

  /** The pending entries, oldest first. */
  list(): InboxItem[] {
    return [...this.#entries.values()].map((entry) => entry.item);
  }

  /** Answers an entry; false when there is none by that id (answered, withdrawn or never there). */
  answer(id: string, answer: unknown): boolean {
    const entry = this.#entries.get(id);
    if (entry === undefined) return false;
    this.#remove(id);
    entry.resolve(answer);
    return true;
  }

  /** Calls `listener` after every change; returns the unsubscribe. */
  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #remove(id: string): void {
    if (this.#entries.delete(id)) this.#changed();
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }
}
