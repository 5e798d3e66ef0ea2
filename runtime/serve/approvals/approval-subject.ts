import type { ApprovalRequest } from '../../policy/policy-gate.js';

/** Longest caller-written text an approval question shows. */
const MAX_SUBJECT_CHARS = 2_000;

/**
 * What a call that asks would do, in one line a human reads: the commands it runs or the paths it touches (else its
 * arguments), each quoted with control, format and bidi characters escaped and the whole bounded, so caller text
 * cannot draw a fake line or hide what it does. Shown by elicitation and by the dashboard's inbox alike.
 */
export function approvalSubject(request: Pick<ApprovalRequest, 'args' | 'commands' | 'paths'>): string {
  const original = typeof request.args['command'] === 'string' ? [request.args['command']] : undefined;
  const items = original ?? request.commands ?? request.paths;
  const what = request.commands?.length || original ? 'runs' : request.paths?.length ? 'touches' : 'arguments';
  return items?.length ? `${what}: ${bounded(items.map(quoted).join(', '))}` : `${what}: ${bounded(quoted(JSON.stringify(request.args)))}`;
}

/** JSON quoting, with format characters (bidi overrides, zero-width) escaped as well. */
function quoted(text: string): string {
  return JSON.stringify(text).replace(/[\p{Cf}\u2028\u2029]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function bounded(text: string): string {
  return text.length <= MAX_SUBJECT_CHARS ? text : `${text.slice(0, MAX_SUBJECT_CHARS)}... (+${text.length - MAX_SUBJECT_CHARS} more characters)`;
}
