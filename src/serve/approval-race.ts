import type { ApprovalOption } from '../policy/types.js';

/** Where a served approval can be answered: the MCP client (elicitation) and the dashboard's inbox. */
export type ApprovalChannel = 'elicitation' | 'inbox';

/** What happened to a served approval; the race is decided by the first event that settles it. */
export type RaceEvent =
  /** A human answered on a channel (`answer` unchecked: anything outside the choices is a denial); `note` says how. */
  | { type: 'answered'; channel: ApprovalChannel; answer: unknown; note?: string }
  /** A channel cannot answer (no capability, its request failed): the others still may. */
  | { type: 'unavailable'; channel: ApprovalChannel; why: string }
  /** The approval's wait (`approvalTimeoutMs`) ran out. */
  | { type: 'expired'; afterMs: number };

/** A race still open: the channels that can still answer, and why the others cannot. */
export interface RaceState {
  readonly open: readonly ApprovalChannel[];
  readonly lost: readonly string[];
}

/** How a race ended: the answer, the channel that gave it (none when no human answered), and why in words. */
export interface RaceOutcome {
  readonly answer: ApprovalOption;
  readonly channel: ApprovalChannel | undefined;
  readonly why: string;
}

/** The result of one step: the race goes on, or it is settled. */
export type RaceStep = { settled: false; state: RaceState } | { settled: true; outcome: RaceOutcome };

const NAMES: Record<ApprovalChannel, string> = { elicitation: 'the client (elicitation)', inbox: "the dashboard's approval inbox" };

/** The start of a race over `channels`; no channel at all is settled at once as a denial. */
export function startRace(channels: readonly ApprovalChannel[], lost: readonly string[] = []): RaceStep {
  return channels.length === 0 ? denied(undefined, `nobody can answer: ${lost.join('; ') || 'no channel'}`) : { settled: false, state: { open: channels, lost } };
}

/**
 * One step of the race: the first answer wins (an answer outside `options` is a denial by that channel), a channel
 * that becomes unavailable leaves the others racing (the last one leaving is a denial naming why each left), and the
 * wait running out is a denial naming the channels that did not answer.
 */
export function stepRace(state: RaceState, event: RaceEvent, options: readonly ApprovalOption[]): RaceStep {
  if (event.type === 'answered') {
    const by = NAMES[event.channel];
    if (typeof event.answer === 'string' && (options as readonly string[]).includes(event.answer)) {
      return { settled: true, outcome: { answer: event.answer as ApprovalOption, channel: event.channel, why: `answered ${event.answer} by ${by}${event.note === undefined ? '' : ` (${event.note})`}` } };
    }
    return denied(event.channel, event.note ?? `${by} answered ${JSON.stringify(event.answer)}, not one of ${options.join(', ')}`);
  }
  if (event.type === 'unavailable') {
    if (!state.open.includes(event.channel)) return { settled: false, state };
    const open = state.open.filter((channel) => channel !== event.channel);
    const lost = [...state.lost, `${NAMES[event.channel]}: ${event.why}`];
    return open.length === 0 ? denied(undefined, `nobody can answer: ${lost.join('; ')}`) : { settled: false, state: { open, lost } };
  }
  const waited = state.open.map((channel) => NAMES[channel]).join(' or ');
  return denied(undefined, `no answer within ${event.afterMs} ms (approvalTimeoutMs) from ${waited}`);
}

function denied(channel: ApprovalChannel | undefined, why: string): RaceStep {
  return { settled: true, outcome: { answer: 'deny', channel, why } };
}
