import { describe, expect, it } from 'vitest';
import { COMMAND_GENS } from '../../../fuzz/shell/commands.js';
import { generate } from '../../../fuzz/shell/grammar.js';

const N = 3000;
const sample = Array.from({ length: N }, (_, i) => generate(99, i));

describe('the command generator', () => {
  it('is reproducible from seed and index alone', () => {
    for (const i of [0, 1, 17, 2999]) expect(generate(99, i)).toEqual(sample[i]);
    expect(generate(100, 5).text).not.toBe(generate(99, 5).text);
  });

  it('covers every command generator and the main constructs within a few thousand commands', () => {
    const tags = new Set(sample.flatMap((g) => g.tags));
    for (const c of COMMAND_GENS) expect(tags, c.name).toContain(`cmd:${c.name}`);
    for (const c of ['redirect', 'heredoc', 'list', 'pipe', 'subshell', 'group', 'if', 'for', 'while', 'function', 'cd', 'assign', 'process-subst', 'command-subst', 'arith', 'expansion', 'case', 'brace-expansion']) {
      expect(tags, c).toContain(`construct:${c}`);
    }
    for (const shape of ['inside', 'readroot', 'outside', 'twin', 'link', 'glob', 'variable', 'substitution', 'quoted', 'tilde', 'blocked']) expect(tags, shape).toContain(`path:${shape}`);
    for (const form of ['gnu-prefix', 'long-equals', 'cluster', 'attached']) expect(tags, form).toContain(`optform:${form}`);
  });

  it('keeps a harmless share for the over-asking count, and no harmless command names a hostile path', () => {
    const harmless = sample.filter((g) => g.harmless);
    expect(harmless.length).toBeGreaterThan(N / 5);
    const hostile = /link-out|rel-out|outside|ws-evil|self\/|~|\$HOME\/|evil\.sh|-C nested|\.\.\/\.\.|pwned|\.git\/|\.bashrc|\.envrc|\.vscode/;
    expect(harmless.filter((g) => hostile.test(g.text)).map((g) => g.text)).toEqual([]);
  });
});
