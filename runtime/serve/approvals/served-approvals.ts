import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ToolwardenError } from '../../../src/errors.js';
import { startRace, stepRace, type ApprovalChannel, type RaceEvent, type RaceOutcome, type RaceStep } from '../../../src/serve/approval-race.js';
import type { ApprovalOption } from '../../../src/policy/types.js';
import type { ApprovalRequest, Approver } from '../../policy/policy-gate.js';
import { approvalWait, type ApprovalInbox } from './approval-inbox.js';
import { elicitApproval } from './elicit-approvals.js';

/** Slack given to the SDK's own elicitation timeout, so the race's timer is what ends a wait. */
const ELICIT_SLACK_MS = 1_000;

/**
 * Approvals for served sessions: an `ask` is put to the session's MCP client by elicitation (when it declared the
 * capability) and to the dashboard's inbox (when the dashboard is on), at once; the first answer within
 * `approvalTimeoutMs` wins and the other question is withdrawn (the inbox entry taken down, the elicitation request
 * cancelled). Nobody able to answer, a denial, or no answer in time is `APPROVAL_DENIED` naming why. The call's own
 * end (deadline, abort, close) withdraws both and is reported by the gate with its code.
 */
export class ServedApprovals {
  readonly #servers = new Map<string, Server>();
  readonly #timeoutMs: number;
  readonly #log: (line: string) => void;
  readonly #inbox: ApprovalInbox | undefined;

  constructor(timeoutMs: number, log: (line: string) => void, inbox?: ApprovalInbox) {
    this.#timeoutMs = timeoutMs;
    this.#log = log;
    this.#inbox = inbox;
  }

  /** Routes the approvals of toolwarden session `sessionId` to `server`'s client; returns the detach. */
  attach(sessionId: string, server: Server): () => void {
    this.#servers.set(sessionId, server);
    return () => {
      if (this.#servers.get(sessionId) === server) this.#servers.delete(sessionId);
    };
  }

  /** The runtime's approver. */
  readonly approve: Approver = async (request) => {
    const server = this.#servers.get(request.sessionId);
    const canElicit = server?.getClientCapabilities()?.elicitation !== undefined;
    const channels: ApprovalChannel[] = [...(canElicit ? ['elicitation' as const] : []), ...(this.#inbox ? ['inbox' as const] : [])];
    const first = startRace(channels, canElicit ? [] : ['the client (elicitation): it declared no elicitation capability']);
    const outcome = first.settled ? first.outcome : await this.#race(first, request, server);
    this.#log(`approval for ${request.tool} in session ${request.sessionId}: ${outcome.why}`);
    if (outcome.answer === 'deny') throw new ToolwardenError('APPROVAL_DENIED', `denied: ${outcome.why}`);
    return outcome.answer;
  };

  #race(first: Extract<RaceStep, { settled: false }>, request: ApprovalRequest, server: Server | undefined): Promise<RaceOutcome> {
    return new Promise((resolve, reject) => {
      let step: RaceStep = first;
      const withdraw = new AbortController();
      const ticket = first.state.open.includes('inbox') ? this.#inbox?.add(request, approvalWait(this.#timeoutMs, request.callTimeLeftMs)) : undefined;
      const end = (): void => {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
        ticket?.withdraw();
        withdraw.abort(new Error('answered elsewhere'));
      };
      const feed = (event: RaceEvent): void => {
        if (step.settled) return;
        step = stepRace(step.state, event, request.options as ApprovalOption[]);
        if (!step.settled) return;
        end();
        resolve(step.outcome);
      };
      // The call ended (deadline, abort, close): not an answer; the gate names the signal's reason.
      const onAbort = (): void => {
        if (step.settled) return;
        step = { settled: true, outcome: { answer: 'deny', channel: undefined, why: 'the call ended' } };
        end();
        reject(request.signal.reason);
      };
      const timer = setTimeout(() => feed({ type: 'expired', afterMs: this.#timeoutMs }), this.#timeoutMs);
      request.signal.addEventListener('abort', onAbort, { once: true });
      if (request.signal.aborted) return onAbort();
      if (first.state.open.includes('elicitation')) {
        const signal = AbortSignal.any([request.signal, withdraw.signal]);
        void elicitApproval(server, request, signal, this.#timeoutMs + ELICIT_SLACK_MS).then(feed);
      }
      void ticket?.answer.then((answer) => feed({ type: 'answered', channel: 'inbox', answer }));
      return undefined;
    });
  }
}
