import { BUILTIN_TOOL_NAMES } from '../tools/builtin-schemas.js';
import { BUILTIN_TOOLS } from '../tools/builtin-registry.js';

// bash first: it is the one tool of the profile that can still write.
const READ_ONLY_TOOLS: readonly string[] = Object.freeze(
  BUILTIN_TOOL_NAMES.filter((name) => BUILTIN_TOOLS[name].readOnlyProfile).sort((a, b) => Number(b === 'bash') - Number(a === 'bash')),
);

/**
 * The tools a read-only profile usually exposes: bash, read_file, glob and grep (the registry's `readOnlyProfile`). A
 * classification for building `tools` lists, not enforcement: bash can still write unless rules or the sandbox stop it.
 */
export function readOnlyTools(): readonly string[] {
  return READ_ONLY_TOOLS;
}
