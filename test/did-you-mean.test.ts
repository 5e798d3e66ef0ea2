import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { closestName, didYouMean } from '../src/did-you-mean.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { BUILTIN_TOOL_NAMES } from '../src/tools/builtin-schemas.js';

const FLAGS = ['--help', '--http', '--port', '--host', '--allow-origin', '--shutdown-grace-ms', '--config', '--sandbox', '--workspace', '--tools', '--read-root', '--mcp', '--user'];

describe('closestName', () => {
  it.each([
    ['a letter missing', 'bsh', BUILTIN_TOOL_NAMES, 'bash'],
    ['a letter wrong', 'read_fule', BUILTIN_TOOL_NAMES, 'read_file'],
    ['two neighbours swapped', 'gerp', BUILTIN_TOOL_NAMES, 'grep'],
    ['two swaps', 'wirte_flie', BUILTIN_TOOL_NAMES, 'write_file'],
    ['another case', 'Read_File', BUILTIN_TOOL_NAMES, 'read_file'],
    ['a limit name with a letter missing', 'toolTimeoutM', Object.keys(DEFAULT_LIMITS), 'toolTimeoutMs'],
    ['a flag cut short', '--shutdown-grace', FLAGS, '--shutdown-grace-ms'],
    ['a flag with a letter missing', '--workspce', FLAGS, '--workspace'],
  ])('%s: %s is %s', (_rule, name, candidates, expected) => {
    expect(closestName(name, candidates)).toBe(expected);
  });

  it.each([
    ['a name far from every candidate', 'deploy', BUILTIN_TOOL_NAMES],
    ['a short name two edits away (half its length or more)', 'rg', ['grep']],
    ['a prefix shorter than four characters', '--h', FLAGS],
    ['a prefix of two candidates', '--ho', ['--host', '--hosts']],
    ['a prefix of two candidates, long enough', 'read_', ['read_file', 'read_dir']],
    ['the empty name', '', FLAGS],
  ])('none for %s', (_rule, name, candidates) => {
    expect(closestName(name, candidates)).toBeUndefined();
    expect(didYouMean(name, candidates)).toBe('');
  });

  it('names every candidate itself, and suggests only candidates', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BUILTIN_TOOL_NAMES, ...FLAGS), fc.string({ maxLength: 12 }), (known, noise) => {
        const candidates = [...BUILTIN_TOOL_NAMES, ...FLAGS];
        expect(closestName(known, candidates)).toBe(known);
        const suggested = closestName(noise, candidates);
        if (suggested !== undefined) expect(candidates).toContain(suggested);
      }),
    );
  });

  it("words the hint as '; did you mean 'x'?'", () => {
    expect(didYouMean('bsh', ['bash'])).toBe("; did you mean 'bash'?");
  });
});
