import { createRequire, register } from 'node:module';
import { fileURLToPath } from 'node:url';
import { blockedBuiltinAlternative, INTERNALS_ALTERNATIVE, refusedImportMessage } from '../../src/host-tools/blocked-imports.js';

const require = createRequire(import.meta.url);

/**
 * Narrows what host tool code in this worker can reach: module hooks for ESM imports, a guard on CommonJS
 * require, and the process escape hatches removed. Stops accidental and casual reach-around, not a determined
 * attacker in the same process (see docs/host-tools.md, "Import restrictions, plainly").
 */
export function restrictWorker(): void {
  const distRoot = new URL('../../', import.meta.url).href;
  register(new URL('./import-hooks.js', import.meta.url), {
    data: {
      trustedPrefix: distRoot,
      indexUrl: new URL('../../runtime/index.js', import.meta.url).href,
      toolApiUrl: new URL('../../src/tool-api.js', import.meta.url).href,
    },
  });
  guardRequire(distRoot);
  const proc = process as unknown as Record<string, unknown>;
  for (const name of ['binding', '_linkedBinding', 'dlopen', 'getBuiltinModule']) delete proc[name];
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of ['fetch', 'WebSocket', 'EventSource']) delete global[name];
}

type LoadFn = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown;
type ResolveFn = (request: string, parent: { filename?: string } | undefined, isMain: boolean) => string;

function guardRequire(distRoot: string): void {
  const Module = require('node:module') as { _load: LoadFn; _resolveFilename: ResolveFn };
  const load = Module._load;
  const trustedPath = fileURLToPath(distRoot);
  Module._load = function guardedLoad(request, parent, isMain) {
    if (parent?.filename?.startsWith(trustedPath) !== true) {
      const instead = blockedBuiltinAlternative(request);
      if (instead !== undefined) throw new Error(refusedImportMessage(request, parent?.filename, instead));
      // Decided on the resolved file: require('./addon') finds addon.node, and require(esm) (Node 22+) would load
      // toolwarden's own files, whose imports the hooks trust.
      const resolved = resolveQuietly(Module._resolveFilename, request, parent, isMain);
      if (resolved?.endsWith('.node') === true) throw new Error(refusedImportMessage(request, parent?.filename, 'ctx methods (native addons are not loaded)'));
      if (resolved?.startsWith(trustedPath) === true) throw new Error(refusedImportMessage(request, parent?.filename, INTERNALS_ALTERNATIVE));
    }
    return load.call(this, request, parent, isMain);
  };
}

function resolveQuietly(resolveFilename: ResolveFn, request: string, parent: { filename?: string } | undefined, isMain: boolean): string | undefined {
  try {
    return resolveFilename(request, parent, isMain);
  } catch {
    return undefined; // Unresolvable: the real load reports it.
  }
}
