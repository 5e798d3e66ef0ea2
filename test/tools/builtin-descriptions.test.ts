import { describe, expect, it } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { BUILTIN_DESCRIPTIONS, BUILTIN_SCHEMAS, BUILTIN_TOOL_NAMES, type BuiltinToolName } from '../../src/tools/builtin-schemas.js';
import { describeBuiltinTool } from '../../src/tools/tool-info.js';

/** The limits each description must state: what bounds the tool (size, count, time, the workspace boundary). */
const LIMITS: Record<BuiltinToolName, readonly RegExp[]> = {
  read_file: [new RegExp(`${DEFAULT_LIMITS.readMaxChars} characters`), /read-only roots/, /offset to continue/],
  write_file: [/only inside the workspace/i, /quota/, /\.git\/hooks/],
  edit_file: [/exactly once/, /inside the workspace/, /quota/],
  apply_patch: [/all-or-nothing/i, /inside the workspace/, /quota/],
  list_dir: [new RegExp(`${DEFAULT_LIMITS.maxResults} entries`), /read-only roots/],
  glob: [new RegExp(`at most ${DEFAULT_LIMITS.maxResults}`), /30 s/, /workspace-relative/, /node_modules/],
  grep: [/capped at 1000/, /2 MiB/, /30 s/, /workspace-relative/, /binary/],
  bash: [/30 s/, /200000 characters/, /at most 8/, /sandbox/, /SIGKILL after 2 s/],
  web_fetch: [/1000000 bytes/, /30 s/, /redirect/, /network permission/],
};

/** The top-level argument names of a built-in tool's schema. */
function argumentsOf(name: BuiltinToolName): string[] {
  return Object.keys(BUILTIN_SCHEMAS[name].shape);
}

describe('built-in tool descriptions', () => {
  it.each(BUILTIN_TOOL_NAMES)('%s names every argument it takes', (name) => {
    const missing = argumentsOf(name).filter((arg) => !new RegExp(`\\b${arg}\\b`).test(BUILTIN_DESCRIPTIONS[name]));
    expect(missing).toEqual([]);
  });

  it.each(BUILTIN_TOOL_NAMES)('%s states its limits', (name) => {
    const missing = LIMITS[name].filter((limit) => !limit.test(BUILTIN_DESCRIPTIONS[name])).map(String);
    expect(missing).toEqual([]);
  });

  it('bash describes each action with the arguments it takes', () => {
    const text = BUILTIN_DESCRIPTIONS.bash;
    const actions: Record<string, readonly string[]> = {
      exec: ['command', 'cwd', 'timeoutMs'],
      start: ['command'],
      status: ['processId'],
      logs: ['processId', 'offset', 'limit'],
      write: ['processId', 'input'],
      stop: ['processId'],
      list: [],
    };
    expect(Object.keys(actions).sort()).toEqual([...BUILTIN_SCHEMAS.bash.shape.action.unwrap().options].sort());
    for (const [action, args] of Object.entries(actions)) {
      const clause = text.split(/;\s+/).find((part) => new RegExp(`(^|: )${action}( \\(default\\))?:`).test(part));
      expect(clause, action).toBeDefined();
      for (const arg of args) expect(clause, `${action} ${arg}`).toContain(arg);
    }
  });

  it('listTools shows the same text: one source of truth', () => {
    for (const name of BUILTIN_TOOL_NAMES) expect(describeBuiltinTool(name).description).toBe(BUILTIN_DESCRIPTIONS[name]);
  });
});
