import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ElicitResultSchema } from '@modelcontextprotocol/sdk/types.js';
import type { RaceEvent } from '../../../src/serve/approval-race.js';
import type { ApprovalOption } from '../../../src/policy/types.js';
import type { ApprovalRequest } from '../../policy/policy-gate.js';
import { approvalSubject } from './approval-subject.js';

/** The question an approval puts to the client's user, and the one field the answer carries. */
const ANSWER_FIELD = 'decision';

const TITLES: Record<ApprovalOption, string> = { allow: 'Allow once', 'allow-always': 'Allow always (this session)', deny: 'Deny' };

/**
 * Puts an approval to the MCP client of the session that made the call, as an elicitation, when the client declared
 * the `elicitation` capability. Resolves with what happened on this channel (never rejects): the answer (a declined
 * or cancelled form is a `deny`), or why the client cannot answer. Aborting `signal` withdraws the question (the SDK
 * sends `notifications/cancelled`).
 * @param timeoutMs the SDK request's own bound; pass a little more than the approval's wait so the race's timer decides
 */
export async function elicitApproval(server: Server | undefined, request: ApprovalRequest, signal: AbortSignal, timeoutMs: number): Promise<RaceEvent> {
  if (server === undefined || server.getClientCapabilities()?.elicitation === undefined) {
    return { type: 'unavailable', channel: 'elicitation', why: 'the client declared no elicitation capability' };
  }
  try {
    // Sent as a plain request, not through elicitInput: the SDK would turn an answer outside the form's choices into
    // an error, which reads as a client unable to answer and left the call waiting for the other channel; the race
    // checks the answer against the choices and denies at once, naming the client and what it answered.
    const answer = await server.request({ method: 'elicitation/create', params: { mode: 'form', ...approvalForm(request) } }, ElicitResultSchema, { timeout: timeoutMs, signal });
    if (answer.action === 'accept') return { type: 'answered', channel: 'elicitation', answer: answer.content?.[ANSWER_FIELD] };
    return { type: 'answered', channel: 'elicitation', answer: 'deny', note: `the client ${answer.action === 'decline' ? 'declined' : 'cancelled'} the question` };
  } catch (error) {
    return { type: 'unavailable', channel: 'elicitation', why: (error as Error).message };
  }
}

/** The elicitation form of an approval: the call and the reason in the message, the gate's choices as an enum. */
export function approvalForm(request: ApprovalRequest): { message: string; requestedSchema: { type: 'object'; properties: Record<string, { type: 'string'; title: string; enum: string[]; enumNames: string[] }>; required: string[] } } {
  // The reason (ours) comes before anything the caller wrote, so a command cannot draw a fake line into the question.
  const message = [
    `toolwarden: the tool ${request.tool} asks for approval.`,
    `Why: ${request.reason}`,
    ...(request.dangerous ? ['This is a dangerous removal: it can only be allowed once.'] : []),
    approvalSubject(request),
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
