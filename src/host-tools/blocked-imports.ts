/**
 * Built-in modules host tool code may not import, each with the ctx method to use instead. Without the `node:`
 * prefix; both spellings (and subpaths such as `fs/promises`) are refused.
 */
export const BLOCKED_BUILTINS: Readonly<Record<string, string>> = Object.freeze({
  fs: 'ctx.fs',
  'fs/promises': 'ctx.fs',
  child_process: 'ctx.exec',
  net: 'ctx.fetch',
  http: 'ctx.fetch',
  https: 'ctx.fetch',
  http2: 'ctx.fetch',
  tls: 'ctx.fetch',
  dgram: 'ctx.fetch',
  dns: 'ctx.fetch',
  'dns/promises': 'ctx.fetch',
  worker_threads: 'nothing: tools run in the session worker already',
  cluster: 'nothing: tools run in the session worker already',
  vm: 'nothing: code generation is not available to tools',
  module: 'static imports of allowed modules',
  inspector: 'nothing: the inspector is not available to tools',
  'inspector/promises': 'nothing: the inspector is not available to tools',
  wasi: 'nothing: WASI is not available to tools',
});

/** What to use instead when host code imports one of toolwarden's own files other than its `toolwarden` entry. */
export const INTERNALS_ALTERNATIVE = "the 'toolwarden' entry (defineTool) and ctx: toolwarden's own files are not for tool code";

/** The ctx method to use instead when `specifier` names a blocked built-in; undefined when it is allowed. */
export function blockedBuiltinAlternative(specifier: string): string | undefined {
  const bare = specifier.startsWith('node:') ? specifier.slice('node:'.length) : specifier;
  return BLOCKED_BUILTINS[bare];
}

/** The error message for a refused import. */
export function refusedImportMessage(specifier: string, from: string | undefined, instead: string): string {
  return `import of '${specifier}'${from ? ` from ${from}` : ''} is refused in a toolwarden worker: use ${instead} instead`;
}
