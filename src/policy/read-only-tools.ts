const READ_ONLY_TOOLS = Object.freeze(['bash', 'read_file', 'glob', 'grep'] as const);

/**
 * The tools a read-only profile usually exposes: bash, read_file, glob and grep. A classification for
 * building `tools` lists, not enforcement: bash can still write unless rules or the sandbox stop it.
 */
export function readOnlyTools(): readonly string[] {
  return READ_ONLY_TOOLS;
}
