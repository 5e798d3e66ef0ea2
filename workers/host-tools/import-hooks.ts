/**
 * Module customization hooks registered (module.register) in a session worker before host tool modules load.
 * They refuse blocked built-ins, native addons and toolwarden's own files (which may import built-ins freely) to
 * every module outside toolwarden's own build, and point `toolwarden` at the light tool API (`toolwarden/tool` is that API itself). This runs on Node's hooks thread; it shares nothing with the worker but `data`.
 */
import { blockedBuiltinAlternative, INTERNALS_ALTERNATIVE, refusedImportMessage } from '../../src/host-tools/blocked-imports.js';

interface HookData {
  trustedPrefix: string;
  indexUrl: string;
  toolApiUrl: string;
}

interface ResolveContext {
  parentURL?: string;
}

type NextResolve = (specifier: string, context: ResolveContext) => Promise<{ url: string; format?: string | null }>;

let data: HookData | undefined;

/** Receives the trusted prefix and the API URLs from the worker. */
export function initialize(init: HookData): void {
  data = init;
}

/** Refuses blocked imports from untrusted modules; maps the toolwarden entry to the tool API. */
export async function resolve(specifier: string, context: ResolveContext, nextResolve: NextResolve): Promise<{ url: string; format?: string | null; shortCircuit?: boolean }> {
  const trusted = data !== undefined && context.parentURL?.startsWith(data.trustedPrefix) === true;
  if (!trusted) refuseIfBlocked(specifier, context.parentURL);
  const resolved = await nextResolve(specifier, context);
  if (!trusted) {
    if (resolved.url.startsWith('node:')) refuseIfBlocked(resolved.url, context.parentURL);
    if (resolved.url.endsWith('.node')) {
      throw new Error(refusedImportMessage(specifier, context.parentURL, 'ctx methods (native addons are not loaded in a toolwarden worker)'));
    }
  }
  if (data && resolved.url === data.indexUrl) return { url: data.toolApiUrl, format: 'module', shortCircuit: true };
  if (data && resolved.url === data.toolApiUrl) return { ...resolved, shortCircuit: true };
  if (!trusted && data && resolved.url.startsWith(data.trustedPrefix)) {
    throw new Error(refusedImportMessage(specifier, context.parentURL, INTERNALS_ALTERNATIVE));
  }
  return resolved;
}

function refuseIfBlocked(specifier: string, parentURL: string | undefined): void {
  const instead = blockedBuiltinAlternative(specifier);
  if (instead !== undefined) throw new Error(refusedImportMessage(specifier, parentURL, instead));
}
