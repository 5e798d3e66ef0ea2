import { parseNetRule, type NetPermission, type NetRule } from './net-permission.js';

/**
 * The first entry of `asked` that `bound` does not cover, or undefined when every entry is within it. An exact entry
 * (`host`, `host:port`, an IP) is covered only by an exact entry for the same host, since an exact entry also lets a
 * host reach loopback and private addresses, which no wildcard grants; a wildcard (`*.domain`, `'*'`) is covered by
 * `'*'` or by a wildcard of the same or a parent domain. A port-less entry needs a port-less cover.
 * @example netOutside(['*.example.com'], ['*.api.example.com:443']) // undefined
 * @example netOutside(['*'], ['10.0.0.5'])                           // '10.0.0.5'
 */
export function netOutside(bound: NetPermission, asked: NetPermission): string | undefined {
  if (asked === false) return undefined;
  const rules = bound === false ? [] : bound.map(parseNetRule);
  return asked.find((entry) => {
    const rule = parseNetRule(entry);
    return !rules.some((cover) => covers(cover, rule));
  });
}

function covers(cover: NetRule, rule: NetRule): boolean {
  if (cover.port !== undefined && cover.port !== rule.port) return false;
  if (rule.kind === 'exact') return cover.kind === 'exact' && cover.host === rule.host;
  if (cover.kind === 'any') return true;
  if (rule.kind === 'any' || cover.kind === 'exact') return false;
  return rule.host === cover.host || rule.host.endsWith(`.${cover.host}`);
}
