import { describe, expect, it } from 'vitest';
import { startRace, stepRace, type ApprovalChannel, type RaceEvent, type RaceStep } from '../../src/serve/approval-race.js';
import type { ApprovalOption } from '../../src/policy/types.js';

const ALL: ApprovalOption[] = ['allow', 'deny', 'allow-always'];
const DANGEROUS: ApprovalOption[] = ['allow', 'deny'];

/** Runs events through a race over `channels` until it settles; returns the outcome, or undefined if it did not. */
function run(channels: ApprovalChannel[], events: RaceEvent[], options = ALL): RaceStep {
  let step = startRace(channels);
  for (const event of events) {
    if (step.settled) break;
    step = stepRace(step.state, event, options);
  }
  return step;
}

const BOTH: ApprovalChannel[] = ['elicitation', 'inbox'];

describe('the approval race: the first answer within the deadline wins', () => {
  it.each<[string, ApprovalChannel[], RaceEvent[], ApprovalOption[], { answer: ApprovalOption; channel: ApprovalChannel | undefined; why: RegExp }]>([
    ['the inbox answers first', BOTH, [{ type: 'answered', channel: 'inbox', answer: 'allow' }, { type: 'answered', channel: 'elicitation', answer: 'deny' }], ALL, { answer: 'allow', channel: 'inbox', why: /inbox/ }],
    ['the client answers first', BOTH, [{ type: 'answered', channel: 'elicitation', answer: 'deny' }, { type: 'answered', channel: 'inbox', answer: 'allow' }], ALL, { answer: 'deny', channel: 'elicitation', why: /client/ }],
    ['allow always from the inbox', BOTH, [{ type: 'answered', channel: 'inbox', answer: 'allow-always' }], ALL, { answer: 'allow-always', channel: 'inbox', why: /allow-always/ }],
    ['the client cannot answer, the inbox then does', BOTH, [{ type: 'unavailable', channel: 'elicitation', why: 'transport closed' }, { type: 'answered', channel: 'inbox', answer: 'allow' }], ALL, { answer: 'allow', channel: 'inbox', why: /inbox/ }],
    ['a declined form is a denial by the client', BOTH, [{ type: 'answered', channel: 'elicitation', answer: 'deny', note: 'the client declined the question' }], ALL, { answer: 'deny', channel: 'elicitation', why: /declined/ }],
  ])('%s', (_name, channels, events, options, expected) => {
    const step = run(channels, events, options);
    expect(step.settled).toBe(true);
    if (step.settled) expect(step.outcome).toMatchObject({ answer: expected.answer, channel: expected.channel, why: expect.stringMatching(expected.why) });
  });
});

describe('the approval race: what is a denial, and why it says', () => {
  it.each<[string, ApprovalChannel[], RaceEvent[], ApprovalOption[], RegExp]>([
    ['allow-always on a dangerous removal (not offered)', BOTH, [{ type: 'answered', channel: 'inbox', answer: 'allow-always' }], DANGEROUS, /not one of allow, deny/],
    ['an answer outside the choices', BOTH, [{ type: 'answered', channel: 'elicitation', answer: 'allow-forever' }], ALL, /"allow-forever", not one of/],
    ['an answer that is not a string', BOTH, [{ type: 'answered', channel: 'inbox', answer: { allow: true } }], ALL, /not one of/],
    ['no answer by the deadline names who was waited for', BOTH, [{ type: 'expired', afterMs: 1500 }], ALL, /no answer within 1500 ms \(approvalTimeoutMs\) from the client \(elicitation\) or the dashboard's approval inbox/],
    ['the deadline after the client left names only the inbox', BOTH, [{ type: 'unavailable', channel: 'elicitation', why: 'x' }, { type: 'expired', afterMs: 10 }], ALL, /from the dashboard's approval inbox$/],
    ['every channel lost names why each left', BOTH, [{ type: 'unavailable', channel: 'elicitation', why: 'transport closed' }, { type: 'unavailable', channel: 'inbox', why: 'server closing' }], ALL, /nobody can answer: .*transport closed.*server closing/],
  ])('%s', (_name, channels, events, options, why) => {
    const step = run(channels, events, options);
    expect(step).toMatchObject({ settled: true, outcome: { answer: 'deny', why: expect.stringMatching(why) } });
  });

  it('no channel at all is settled at once, naming why', () => {
    expect(startRace([], ['the client (elicitation): it declared no elicitation capability'])).toMatchObject({ settled: true, outcome: { answer: 'deny', channel: undefined, why: expect.stringContaining('no elicitation capability') } });
  });

  it('a channel lost twice, or one never raced, changes nothing (the near miss of losing the last one)', () => {
    const one = run(BOTH, [{ type: 'unavailable', channel: 'elicitation', why: 'a' }, { type: 'unavailable', channel: 'elicitation', why: 'b' }]);
    expect(one).toMatchObject({ settled: false, state: { open: ['inbox'] } });
    expect(run(['inbox'], [{ type: 'unavailable', channel: 'elicitation', why: 'a' }])).toMatchObject({ settled: false, state: { open: ['inbox'] } });
  });
});
