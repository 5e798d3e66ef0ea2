import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../bench/args.js';
import { SCENARIOS } from '../../bench/scenarios/index.js';
import { scenarioById, scenarioIds } from '../../bench/scenarios/select.js';

const ids = scenarioIds(SCENARIOS);

describe('bench scenario ids', () => {
  it('are unique, so --scenario N names exactly one scenario', () => {
    expect(new Set(SCENARIOS.map((scenario) => scenario.id)).size).toBe(SCENARIOS.length);
    expect(ids).toEqual(SCENARIOS.map((scenario) => scenario.id));
  });

  it('a list where two scenarios share an id is refused, naming both', () => {
    const clash = [{ id: 7, title: 'sandbox start-up' }, { id: 7, title: 'egress proxy' }];
    expect(() => scenarioIds(clash)).toThrow(/share id 7: 'sandbox start-up' and 'egress proxy'/);
    expect(() => scenarioById(clash, 7)).toThrow(/share id 7/);
  });

  it.each(SCENARIOS.map((scenario) => [scenario.id, scenario.title] as const))('--scenario %i selects only "%s"', (id, title) => {
    const args = parseArgs(['--scenario', String(id)], ids);
    expect(args.scenarios).toEqual([id]);
    expect(scenarioById(SCENARIOS, id).title).toBe(title);
  });

  it.each([
    ['7 is the sandbox start-up', 7, /sandbox start-up/i],
    ['8 is the egress proxy', 8, /egress proxy/i],
  ])('%s', (_name, id, title) => {
    expect(scenarioById(SCENARIOS, id).title).toMatch(title);
  });
});

describe('bench --scenario parsing', () => {
  it.each([
    ['a list, in order', ['--scenario', '3,2'], [3, 2]],
    ['the inline form', ['--scenario=8'], [8]],
    ['a repeat counted once', ['--scenario', '2,2'], [2]],
    ['every scenario by default', [], ids],
  ])('%s', (_name, argv, expected) => {
    expect(parseArgs(argv, ids).scenarios).toEqual(expected);
  });

  it.each([
    ['an unknown id', ['--scenario', '99'], /--scenario takes numbers among 1, 2, 3, 4, 5, 6, 7, 8; got '99'/],
    ['no value', ['--scenario'], /--scenario needs a value/],
    ['an empty item', ['--scenario', '2,'], /--scenario takes numbers among/],
    ['an unknown flag', ['--scenarios', '2'], /unknown argument '--scenarios'/],
  ])('refuses %s', (_name, argv, message) => {
    expect(() => parseArgs(argv, ids)).toThrow(message);
  });

  it('asking for a scenario no list holds names the id', () => {
    expect(() => scenarioById(SCENARIOS, 99)).toThrow(/no bench scenario has id 99/);
  });
});
