import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { ApprovalOption } from '../../../src/policy/types.js';
import type { ApprovalRequest, Approver } from '../../policy/policy-gate.js';

/** The question an approval puts to the client's user, and the one field the answer carries. */
const ANSWER_FIELD = 'decision';

const TITLES: Record<ApprovalOption, string> = { allow: 'Allow once', 'allow-always': 'Allow always (this session)', deny: 'Deny' };

/**
 * Approvals for served sessions: an `ask` is put to the MCP client of the session that made the call, as an
 * elicitation (when the client declared the `elicitation` capability), with the call, the reason and the choices
 * the gate offers (never allow-always for a dangerous removal). No client that can answer, a declined or cancelled
 * form, an answer outside the choices, or no answer within the deadline is a denial.
 */
export class ElicitApprovals {
  readonly #servers = new Map<string, Server>();
  readonly #timeoutMs: number;
  readonly #log: (line: string) => void;

  constructor(timeoutMs: number, log: (line: string) => void) {
    this.#timeoutMs = timeoutMs;
    this.#log = log;
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
    if (server === undefined || server.getClientCapabilities()?.elicitation === undefined) {
      this.#log(`approval for ${request.tool} in session ${request.sessionId} denied: the client cannot answer (no elicitation capability)`);
      return 'deny';
    }
    try {
      // The call's signal: its deadline, an abort or a close withdraws the question.
      const answer = await server.elicitInput(approvalForm(request), { timeout: this.#timeoutMs, signal: request.signal });
      const choice = answer.action === 'accept' ? answer.content?.[ANSWER_FIELD] : undefined;
      return typeof choice === 'string' && (request.options as string[]).includes(choice) ? (choice as ApprovalOption) : 'deny';
    } catch (error) {
      this.#log(`approval for ${request.tool} in session ${request.sessionId} denied: ${(error as Error).message}`);
      return 'deny';
    }
  };
}

/** The elicitation form of an approval: the call and the reason in the message, the gate's choices as an enum. */
export function approvalForm(request: ApprovalRequest): { message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'string'; title: string; enum: string[]; enumNames: string[] }>; required: string[] } } {
  // The reason (ours) comes before anything the caller wrote, which is quoted with its control and bidi characters
  // escaped, so a command cannot draw a fake line into the question.
  const original = typeof request.args['command'] === 'string' ? [request.args['command']] : undefined;
  const items = original ?? request.commands ?? request.paths;
  const what = request.commands?.length || original ? 'runs' : request.paths?.length ? 'touches' : 'arguments';
  const subject = items?.length ? `${what}: ${bounded(items.map(quoted).join(', '))}` : `${what}: ${bounded(quoted(JSON.stringify(request.args)))}`;
  const message = [
    `toolwarden: the tool ${request.tool} asks for approval.`,
    `Why: ${request.reason}`,
    ...(request.dangerous ? ['This is a dangerous removal: it can only be allowed once.'] : []),
    subject,
  ].join('\n');
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: { [ANSWER_FIELD]: { type: 'string', title: 'Decision', enum: [...request.options], enumNames: request.options.map((option) => TITLES[option]) } },
      required: [ANSWER_FIELD],
    },
  };
}

/** Longest caller-written text an approval question shows. */
const MAX_SUBJECT_CHARS = 2_000;

/** JSON quoting, with format characters (bidi overrides, zero-width) escaped as well. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(/[\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function bounded(text: string): string {
  return text.length <= MAX_SUBJECT_CHARS ? text : `${text.slice(0, MAX_SUBJECT_CHARS)}... (+${text.length - MAX_SUBJECT_CHARS} more characters)`;
}
