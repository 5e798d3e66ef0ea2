import type { Scenario } from './scenario.js';

/**
 * The ids of `scenarios`, in order; throws when two share an id, since `--scenario N` must name exactly one.
 * @example scenarioIds([{ id: 1, ... }, { id: 2, ... }]) // [1, 2]
 */
export function scenarioIds(scenarios: readonly Pick<Scenario, 'id' | 'title'>[]): number[] {
  const seen = new Map<number, string>();
  for (const { id, title } of scenarios) {
    const other = seen.get(id);
    if (other !== undefined) throw new Error(`two bench scenarios share id ${id}: '${other}' and '${title}'`);
    seen.set(id, title);
  }
  return [...seen.keys()];
}

/** The one scenario with `id`; throws when none or several have it. */
export function scenarioById<S extends Pick<Scenario, 'id' | 'title'>>(scenarios: readonly S[], id: number): S {
  scenarioIds(scenarios);
  const found = scenarios.find((scenario) => scenario.id === id);
  if (!found) throw new Error(`no bench scenario has id ${id}`);
  return found;
}
