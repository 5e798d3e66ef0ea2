import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createGuardFixture, OUTSIDE_NAMES } from './guard-fixture.js';

// Threat family 24: a refusal is not an oracle. What the static check says about a command (its verdict, code and
// every reason) is the same whether something outside exists, names paths only as the command wrote them, and never
// lists a directory the session cannot read. Real files, real links, the real guard.
const fx = createGuardFixture();
afterAll(() => fx.tree.cleanup());

const ROOT_NAMES = fs.readdirSync('/');

/** What a refusal says that the command did not: outside names, absolute paths, entries of `/`. */
function learned(command: string, said: string): string[] {
  const out = OUTSIDE_NAMES.filter((name) => said.includes(name) && !command.includes(name));
  for (const token of said.match(/(?<![\w@.~-])\/[^\s"',;:()\\]*/g) ?? []) if (!command.includes(token)) out.push(token);
  for (const name of ROOT_NAMES) if (said.includes(`root-link/${name}`)) out.push(`root-link/${name}`);
  if (said.includes('@B@/outside') && !command.includes('@B@/outside')) out.push('@B@/outside');
  return out;
}

describe('a refusal tells nothing about what lies outside', () => {
  it.each([
    ['a glob in a directory outside', 'cat @B@/outside/*.txt'],
    ['a glob in a directory outside, as an echo word', 'echo @B@/outside/*'],
    ['a glob through a link to /', 'cat */*'],
    ['a glob through a link outside', 'cat out-link/*'],
    ['a glob below a link outside', 'cat out-link/*/*'],
    ['a glob in the directory above the workspace', 'cat ../*/a.txt'],
    ['a for loop over a glob outside', 'for f in @B@/outside/*; do cat "$f"; done'],
    ['a read through a directory link outside', 'cat out-link/a.txt'],
    ['a read of a file link outside', 'cat links/out-file'],
    ['a read of a dangling link outside', 'cat links/out-missing'],
    ['a read of a link into a loop outside', 'cat links/out-loop'],
    ['a .. after a link outside', 'cat out-link/hidden-sub/../a.txt'],
    ['a write through a link outside', 'echo x > out-link/new.txt'],
    ['a recursive walk following links', 'grep -R x links'],
    ['a recursive copy following links', 'cp -rL links copy'],
    ['a cd through a link, then a glob', 'cd out-link && cat *'],
    ['git in a directory outside', 'git -C out-link status'],
    ['a move into a directory outside', 'mv a.txt out-link/hidden-sub'],
    ['a listing that follows links', 'ls -lL links'],
  ])('%s: %s', async (_name, command) => {
    const check = await fx.check(command);
    const said = fx.said(check);
    expect(check.verdict, said).not.toBe('allow');
    expect(learned(command, said), said).toEqual([]);
  });

  // The same command about an existing and a missing entry outside: everything the check says is the same.
  it.each([
    ['a file outside', 'cat @B@/outside/{X}', 'a.txt', 'nope.txt'],
    ['a directory outside', 'ls @B@/outside/{X}', 'hidden-sub', 'nope-sub'],
    ['a glob in a directory outside', 'cat @B@/outside/{X}/*', 'hidden-sub', 'nope-sub'],
    ['a file through a link outside', 'cat out-link/{X}', 'a.txt', 'nope.txt'],
    ['a directory through a link outside', 'cat out-link/{X}/*.txt', 'hidden-sub', 'nope-sub'],
    ['a live and a dangling link outside', 'cat links/{X}', 'out-file', 'out-missing'],
    ['a loop and a file outside', 'cat links/{X}', 'out-loop', 'out-file'],
    ['a .. after an entry outside', 'cat @B@/outside/{X}/../a.txt', 'hidden-sub', 'nope-sub'],
    ['a write outside', 'echo x > @B@/outside/{X}', 'a.txt', 'nope.txt'],
    ['a write through a link into a directory outside', 'echo x > out-link/{X}/f', 'hidden-sub', 'nope-sub'],
    ['a cd outside', 'cd @B@/outside/{X} && cat a.txt', 'hidden-sub', 'nope-sub'],
    ['git in a directory outside', 'git -C @B@/outside/{X} status', 'hidden-sub', 'nope-sub'],
    ['a recursive walk outside', 'grep -R x @B@/outside/{X}', 'hidden-sub', 'nope-sub'],
    ['a recursive removal outside', 'rm -rf @B@/outside/{X}', 'hidden-sub', 'nope-sub'],
    ['a copy of a tree outside', 'cp -r @B@/outside/{X} here', 'hidden-sub', 'nope-sub'],
    ['a move to a directory or a file outside', 'mv a.txt @B@/outside/{X}', 'hidden-sub', 'nope-sub'],
    ['a link made in a directory or as a file outside', 'ln -s a.txt @B@/outside/{X}', 'hidden-sub', 'nope-sub'],
    ['tar changing into a directory outside', 'tar -cf x.tar -C @B@/outside/{X} .', 'hidden-sub', 'nope-sub'],
  ])('%s reads the same whether it exists: %s', async (_name, template, existing, missing) => {
    const [a, b] = await Promise.all([fx.check(template.replace('{X}', existing)), fx.check(template.replace('{X}', missing))]);
    const as = (check: typeof a, word: string): unknown => ({ verdict: check.verdict, code: check.code, said: fx.said(check).replaceAll(word, '{X}') });
    expect(a.verdict).not.toBe('allow');
    expect(as(a, existing)).toEqual(as(b, missing));
  });

  it.each([
    ['a glob outside is refused as written', 'cat @B@/outside/*.txt', '@B@/outside/*.txt'],
    ['a glob through a link to / is refused as written', 'cat */*', '*/*'],
    ['a read through a link names the path as written', 'cat out-link/a.txt', 'out-link/a.txt'],
    ['a file link outside names the link', 'cat links/out-file', 'links/out-file'],
  ])('%s', async (_name, command, written) => {
    const check = await fx.check(command);
    expect(check.verdict).toBe('deny');
    expect(check.decidingPath?.replaceAll(fx.tree.root, '@B@')).toBe(written);
    expect(check.reasons[0]?.replaceAll(fx.tree.root, '@B@')).toContain(`path ${written} `);
  });

  it.each([
    ['a link that stays inside', 'cat links-in/in-file'],
    ['a glob over links that stay inside', 'cat links-in/*'],
    ['a glob through a link into a read root', 'cat links-in/ro-dir/*'],
    ['a glob in a read root', 'cat ../ro/*'],
    ['a glob in the workspace', 'cat src/*'],
    ['an echo of every name in the workspace', 'echo *'],
    ['a listing of links without following them', 'ls -l links'],
    ['a for loop over a glob inside', 'for f in src/*; do cat "$f"; done'],
    ['a cd through a link that stays inside', 'cd links-in/in-dir && cat x.ts'],
    ['git in the workspace', 'git status'],
  ])('near miss, still allowed: %s (%s)', async (_name, command) => {
    const check = await fx.check(command);
    expect(check.verdict, fx.said(check)).toBe('allow');
  });
});
