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

  it('gives neighbouring seeds different commands, not the same ones in another order', () => {
    const texts = (seed: number): Set<string> => new Set(Array.from({ length: 400 }, (_, i) => generate(seed, i).text));
    const [a, b] = [texts(20260612), texts(20260613)];
    expect([...a].filter((t) => b.has(t)).length).toBeLessThan(a.size / 4);
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

  it('follows links with every command that can (threat family 25), never in a harmless command', () => {
    const tags = new Set(sample.flatMap((g) => g.tags));
    for (const cmd of ['ls', 'stat', 'file', 'du', 'find', 'cp', 'tar', 'chown', 'chgrp', 'readlink', 'realpath', 'grep', 'diff']) expect(tags, cmd).toContain(`follow:${cmd}`);
    for (const opt of ['ls:--dereference', 'ls:-H', 'du:-D', 'find:-L', 'cp:-L', 'tar:-h', 'chown:-RL']) expect(tags, opt).toContain(`opt:${opt}`);
    expect(sample.filter((g) => g.harmless && g.tags.some((t) => t.startsWith('follow:'))).map((g) => g.text)).toEqual([]);
  });

  it('keeps a harmless share for the over-asking count, and no harmless command names a hostile path', () => {
    const harmless = sample.filter((g) => g.harmless);
    expect(harmless.length).toBeGreaterThan(N / 5);
    const hostile = /link-out|rel-out|outside|ws-evil|self\/|~|\$HOME\/|evil\.sh|-C nested|\.\.\/\.\.|pwned|\.git\/|\.bashrc|\.envrc|\.vscode/;
    expect(harmless.filter((g) => hostile.test(g.text)).map((g) => g.text)).toEqual([]);
  });
});
