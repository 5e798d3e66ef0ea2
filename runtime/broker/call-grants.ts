import type { BrokerRequest } from '../../src/protocol/broker.js';
import { builtinTool } from '../../src/tools/builtin-schemas.js';
import { patchPaths } from '../calls/call-subject.js';
import type { CallGrant } from './call-tracker.js';

/** The `ctx` requests, served only for host-defined tools (each through the rules, in the broker). */
const CTX_REQUESTS = new Set<BrokerRequest['type']>(['ctxFs', 'ctxExec', 'ctxFetch', 'ctxMcp', 'log']);

/**
 * Whether a broker request lies within the admission of the call it names; the reason when not. A built-in tool's
 * call may ask only for the operations its code uses, on the very paths (and content, pattern, command) it was
 * admitted with, each once: the worker's tool code sends what it received, one request per operation (per path for
 * apply_patch's reads), so anything else, a replay included, is not that call's request. A host tool's call may make
 * `ctx` requests only, which the broker checks against the rules one by one. Records what it lets through.
 */
export function refusalOfGrant(grant: CallGrant, request: BrokerRequest): string | undefined {
  if (grant.hostTool) return CTX_REQUESTS.has(request.type) ? undefined : notFor(grant, request);
  const refusal = refusalOfBuiltin(grant, request);
  if (refusal !== undefined) return refusal;
  const key = request.type === 'readFile' ? `readFile:${request.path}` : request.type;
  if (grant.served.has(key)) return `broker request ${request.type} was already served for ${grant.tool} call ${grant.callId}`;
  grant.served.add(key);
  return undefined;
}

// The registry says which requests a built-in tool's code may send and how each is bound to the call's arguments.
function refusalOfBuiltin(grant: CallGrant, request: BrokerRequest): string | undefined {
  const broker = builtinTool(grant.tool)?.broker;
  const match = broker !== undefined && Object.hasOwn(broker, request.type) ? broker[request.type] : undefined;
  if (match === undefined) return notFor(grant, request);
  const same = (field: string, value: unknown): boolean => sameValue(grant.args[field], value);
  if (match === 'patch-paths') {
    const touched = patchPathsOfGrant(grant);
    if (request.type === 'readFile') return touched.has(request.path) ? undefined : notFor(grant, request);
    if (request.type !== 'applyChanges') return notFor(grant, request);
    const outside = request.steps.find((step) => !touched.has(step.path));
    return outside === undefined ? undefined : `${grant.tool} call ${grant.callId} was not admitted for ${outside.path}`;
  }
  const fields = fieldsOf(request);
  if (match === 'every-field') {
    const names = new Set([...Object.keys(fields), ...Object.keys(grant.args)]);
    return [...names].every((field) => same(field, fields[field])) ? undefined : notFor(grant, request);
  }
  return match.every((field) => same(field, fields[field])) ? undefined : notFor(grant, request);
}

// A request's own fields: grep's are its request object, the others' sit beside its type.
function fieldsOf(request: BrokerRequest): Record<string, unknown> {
  return request.type === 'grep' ? (request.request as unknown as Record<string, unknown>) : (request as unknown as Record<string, unknown>);
}

function notFor(grant: CallGrant, request: BrokerRequest): string {
  return `broker request ${request.type} is not part of the admitted ${grant.tool} call ${grant.callId}`;
}

const patchPathsOf = new WeakMap<CallGrant, ReadonlySet<string>>();

/** Every path an apply_patch call was admitted for (its rules and guard checked each one). */
function patchPathsOfGrant(grant: CallGrant): ReadonlySet<string> {
  let paths = patchPathsOf.get(grant);
  if (!paths) {
    paths = parsedPatchPaths(grant.args);
    patchPathsOf.set(grant, paths);
  }
  return paths;
}

function parsedPatchPaths(args: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  try {
    return new Set(patchPaths(String(args['patch'])));
  } catch {
    return new Set();
  }
}

/** Deep equality of plain data; a missing field equals undefined. */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!sameValue(left[key], right[key])) return false;
  return true;
}
