import type { BrokerApi } from '../../src/protocol.js';

/** Every method of the broker, and nothing else, may be called from a tool host process. */
const BROKER_METHODS = {
  readFile: true,
  readFileStrict: true,
  writeFile: true,
  listDir: true,
  glob: true,
  grep: true,
  applyChanges: true,
  bash: true,
  ctxFs: true,
  ctxExec: true,
  ctxFetch: true,
  ctxMcp: true,
  log: true,
} as const satisfies Record<keyof BrokerApi, true>;

/**
 * Whether a comlink message from an untrusted tool host is a plain call of one broker method with plain arguments.
 * comlink's `expose` walks any property path it is sent and also takes GET, SET and CONSTRUCT, so an unfiltered peer
 * could read `constructor`, or set `__proto__.x` and pollute the runtime's prototypes; only `APPLY [method]` passes.
 */
export function isBrokerRequest(data: unknown): boolean {
  if (typeof data !== 'object' || data === null) return false;
  const { id, type, path, argumentList } = data as { id?: unknown; type?: unknown; path?: unknown; argumentList?: unknown };
  if (typeof id !== 'string' || type !== 'APPLY') return false;
  if (!Array.isArray(path) || path.length !== 1 || typeof path[0] !== 'string' || !Object.hasOwn(BROKER_METHODS, path[0])) return false;
  return Array.isArray(argumentList) && argumentList.every((arg: unknown) => typeof arg === 'object' && arg !== null && (arg as { type?: unknown }).type === 'RAW');
}
