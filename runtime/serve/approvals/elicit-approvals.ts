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
    const signal = (request as ApprovalRequest & { signal?: AbortSignal }).signal;
    try {
      const answer = await server.elicitInput(approvalForm(request), { timeout: this.#timeoutMs, ...(signal === undefined ? {} : { signal }) });
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
  const subject = request.commands?.length ? `runs: ${request.commands.join(' ; ')}` : request.paths?.length ? `touches: ${request.paths.join(', ')}` : `arguments: ${JSON.stringify(request.args).slice(0, 500)}`;
  const message = [`toolwarden: the tool ${request.tool} asks for approval.`, subject, `Why: ${request.reason}`, ...(request.dangerous ? ['This is a dangerous removal: it can only be allowed once.'] : [])].join('\n');
  return {
    message,
    requestedSchema: {
      type: 'object',
      properties: { [ANSWER_FIELD]: { type: 'string', title: 'Decision', enum: [...request.options], enumNames: request.options.map((option) => TITLES[option]) } },
      required: [ANSWER_FIELD],
    },
  };
}
