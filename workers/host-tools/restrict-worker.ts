import { createRequire, register } from 'node:module';
import { blockedBuiltinAlternative, refusedImportMessage } from '../../src/host-tools/blocked-imports.js';

const require = createRequire(import.meta.url);

/**
 * Narrows what host tool code in this worker can reach: module hooks for ESM imports, a guard on CommonJS
 * require, and the process escape hatches removed. Stops accidental and casual reach-around, not a determined
 * attacker in the same process (see the README).
 */
export function restrictWorker(): void {
  const distRoot = new URL('../../', import.meta.url).href;
  register(new URL('./import-hooks.js', import.meta.url), {
    data: {
      trustedPrefix: distRoot,
      indexUrl: new URL('../../src/index.js', import.meta.url).href,
      toolApiUrl: new URL('../../src/tool-api.js', import.meta.url).href,
    },
  });
  guardRequire(distRoot);
  const proc = process as unknown as Record<string, unknown>;
  for (const name of ['binding', '_linkedBinding', 'dlopen', 'getBuiltinModule']) delete proc[name];
  const global = globalThis as unknown as Record<string, unknown>;
  for (const name of ['fetch', 'WebSocket', 'EventSource']) delete global[name];
}

function guardRequire(distRoot: string): void {
  const Module = require('node:module') as { _load: (request: string, parent: { filename?: string } | undefined, isMain: boolean) => unknown };
  const load = Module._load;
  const trustedPath = new URL(distRoot).pathname;
  Module._load = function guardedLoad(request, parent, isMain) {
    const fromTrusted = parent?.filename?.startsWith(trustedPath) === true;
    if (!fromTrusted) {
      const instead = blockedBuiltinAlternative(request);
      if (instead !== undefined) throw new Error(refusedImportMessage(request, parent?.filename, instead));
      if (request.endsWith('.node')) throw new Error(refusedImportMessage(request, parent?.filename, 'ctx methods (native addons are not loaded)'));
    }
    return load.call(this, request, parent, isMain);
  };
}
