import type { BrokerRequest } from '../../src/protocol/broker.js';
import { parsePatch } from '../../src/text/index.js';
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

function refusalOfBuiltin(grant: CallGrant, request: BrokerRequest): string | undefined {
  const { args } = grant;
  const same = (field: string, value: unknown): boolean => sameValue(args[field], value);
  switch (request.type) {
    case 'readFileStrict':
      return (grant.tool === 'read_file' || grant.tool === 'edit_file') && same('path', request.path) ? undefined : notFor(grant, request);
    case 'writeFile':
      if (grant.tool === 'write_file' && same('path', request.path) && same('content', request.content)) return undefined;
      return grant.tool === 'edit_file' && same('path', request.path) ? undefined : notFor(grant, request);
    case 'readFile':
      return grant.tool === 'apply_patch' && patchPaths(grant).has(request.path) ? undefined : notFor(grant, request);
    case 'applyChanges': {
      if (grant.tool !== 'apply_patch') return notFor(grant, request);
      const touched = patchPaths(grant);
      const outside = request.steps.find((step) => !touched.has(step.path));
      return outside === undefined ? undefined : `apply_patch call ${grant.callId} was not admitted for ${outside.path}`;
    }
    case 'listDir':
      return grant.tool === 'list_dir' && same('path', request.path) ? undefined : notFor(grant, request);
    case 'glob':
      return grant.tool === 'glob' && same('pattern', request.pattern) && same('path', request.path) ? undefined : notFor(grant, request);
    case 'grep': {
      if (grant.tool !== 'grep') return notFor(grant, request);
      const asked = request.request as unknown as Record<string, unknown>;
      const fields = new Set([...Object.keys(asked), ...Object.keys(args)]);
      return [...fields].every((field) => same(field, asked[field])) ? undefined : notFor(grant, request);
    }
    default:
      return notFor(grant, request);
  }
}

function notFor(grant: CallGrant, request: BrokerRequest): string {
  return `broker request ${request.type} is not part of the admitted ${grant.tool} call ${grant.callId}`;
}

const patchPathsOf = new WeakMap<CallGrant, ReadonlySet<string>>();

/** Every path an apply_patch call was admitted for (its rules and guard checked each one). */
function patchPaths(grant: CallGrant): ReadonlySet<string> {
  let paths = patchPathsOf.get(grant);
  if (!paths) {
    paths = parsedPatchPaths(grant.args);
    patchPathsOf.set(grant, paths);
  }
  return paths;
}

function parsedPatchPaths(args: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  try {
    return new Set(parsePatch(String(args['patch'])).flatMap((op) => (op.kind === 'update' && op.moveTo ? [op.path, op.moveTo] : [op.path])));
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
