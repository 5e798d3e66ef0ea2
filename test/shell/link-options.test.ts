import { afterAll, describe, expect, it } from 'vitest';
import { createGuardFixture } from './guard-fixture.js';

// Threat family 25: an option that follows links reads through them. `links/` holds links out (a file, a directory),
// `links-in/` links that stay inside (a file, a directory, the read root); the workspace root holds links out too
// (`out-link`, `root-link`). Each command that follows a link out must not run unasked; the same command without the
// option, or over links that stay inside, is the near miss that stays allowed.
const fx = createGuardFixture();
afterAll(() => fx.tree.cleanup());

const FOLLOWING: [string, string][] = [
  // ls stats what it lists through the links with -L / --dereference (GNU prefixes included), the operands with -H.
  ['ls', 'ls -lL links'],
  ['ls', 'ls -L links'],
  ['ls', 'ls -l --dereference links'],
  ['ls', 'ls --dereference -l links'],
  ['ls', 'ls -l --dereference'],
  ['ls', 'ls --dereference -l src/..'],
  ['ls', 'ls -l --dereference .'],
  ['ls', 'ls -la --dereference links/..'],
  ['ls', 'ls -lLd links/out-dir'],
  ['ls', 'ls -lH links/out-dir'],
  ['ls', 'ls -l --dereference-command-line links/out-dir'],
  ['ls', 'ls -l --dereference-command-line-symlink-to-dir links/out-dir'],
  ['ls', 'ls -lRL links'],
  ['ls', 'ls -l --dereference links/*'],
  ['stat', 'stat -L links/out-file'],
  ['stat', 'stat --dereference links/out-file'],
  ['stat', 'stat --deref links/out-dir'],
  ['stat', 'stat -L links/*'],
  ['file', 'file -L links/out-file'],
  ['file', 'file --dereference links/out-dir'],
  ['find', 'find -L links'],
  ['find', 'find -H links/out-dir'],
  ['find', 'find links -follow'],
  ['find', 'find links -xtype f'],
  ['find', 'find -L . -name "*.txt"'],
  ['du', 'du -L links'],
  ['du', 'du --dereference links'],
  ['du', 'du -sL .'],
  ['du', 'du -H links/out-dir'],
  ['du', 'du -D links/out-dir'],
  ['du', 'du --dereference-args links/out-dir'],
  ['cp', 'cp -L links/out-file copy'],
  ['cp', 'cp -rL links copy'],
  ['cp', 'cp -r --dereference links copy'],
  ['cp', 'cp -rH links/out-dir copy'],
  ['cp', 'cp -a -L links copy'],
  ['cp', 'cp --deref links/out-file copy'],
  ['tar', 'tar -chf x.tar links'],
  ['tar', 'tar chf x.tar links'],
  ['tar', 'tar --dereference -cf x.tar links'],
  ['tar', 'tar --deref -cf x.tar links'],
  ['tar', 'tar -c -h -f x.tar .'],
  ['chown', 'chown -RL 0:0 links'],
  ['chown', 'chown -R -L 0:0 .'],
  ['chown', 'chown -RH 0:0 links/out-dir'],
  ['chown', 'chown -RH 0:0 links'],
  ['chgrp', 'chgrp -RH 0 links'],
  ['chgrp', 'chgrp -RL 0 links'],
  ['readlink', 'readlink -f links/out-file'],
  ['readlink', 'readlink -e links/out-dir'],
  ['readlink', 'readlink --canonicalize links/out-file'],
  ['realpath', 'realpath links/out-file'],
  ['grep', 'grep -R x links'],
  ['grep', 'grep --dereference-recursive x .'],
  ['grep', 'grep -rR x'],
  ['rg', 'rg -L x links'],
  ['rg', 'rg --follow x'],
  ['fd', 'fd -L x links'],
  ['fd', 'fd --follow x'],
  ['ag', 'ag -f x links'],
  ['tree', 'tree -l links'],
  ['diff', 'diff -r links links-in'],
  ['diff', 'diff --recursive . links-in'],
  ['diff', 'diff links links-in'],
  ['rsync', 'rsync -L links/ copy/'],
  ['rsync', 'rsync -rk links/ copy/'],
  ['rsync', 'rsync --copy-links -r links/ copy/'],
];

const NEAR_MISSES: [string, string][] = [
  ['ls', 'ls -l links'],
  ['ls', 'ls -la'],
  ['ls', 'ls -lR links'],
  ['ls', 'ls -lL links-in'],
  ['ls', 'ls -l --dereference links-in'],
  ['ls', 'ls -lH links-in/in-dir'],
  ['ls', 'ls -LR links-in'],
  ['stat', 'stat links-in/in-file'],
  ['stat', 'stat -L links-in/in-file'],
  ['file', 'file -L links-in/in-file'],
  ['find', 'find links'],
  ['find', 'find -P links'],
  ['find', 'find -L links-in'],
  ['find', 'find links -type l'],
  ['du', 'du links'],
  ['du', 'du -sh .'],
  ['du', 'du -L links-in'],
  ['cp', 'cp -r links copy'],
  ['cp', 'cp -a links copy'],
  ['cp', 'cp -L links-in/in-file copy'],
  ['tar', 'tar -cf x.tar links'],
  ['tar', 'tar -chf x.tar links-in'],
  ['chown', 'chown -R 0:0 links'],
  ['chown', 'chown -RL 0:0 src'],
  ['chgrp', 'chgrp -R 0 links'],
  ['readlink', 'readlink -f links-in/in-file'],
  ['grep', 'grep -r x links'],
  ['grep', 'grep -R x links-in'],
  ['rg', 'rg x links'],
  ['fd', 'fd x links'],
  ['tree', 'tree links'],
  ['tree', 'tree -L 2 links'],
  ['diff', 'diff -r --no-dereference links links-in'],
  ['diff', 'diff -r links-in src'],
  ['wc', 'wc -L a.txt'],
];

// Found by the differential checker with fresh seeds: a recursive chmod, chown or chgrp changes every entry below
// (`chown -RH 0:0 src/..` changed the owner of .git/hooks and nested/.git/config), each a write the guard checks.
const RECURSIVE_CHANGES: [string, 'deny' | 'allow'][] = [
  ['chmod -R u+w .', 'deny'],
  ['chmod --recursive go-w src/..', 'deny'],
  ['chmod -R 755 nested', 'deny'],
  ['chown -R 0:0 .', 'deny'],
  ['chgrp -R 0 n*', 'deny'],
  ['chown -RH 0:0 src/..', 'deny'],
  ['chmod -R u+w src', 'allow'],
  ['chmod -R u+w links', 'allow'],
  ['chown -R 0:0 src links-in', 'allow'],
  ['chmod u+w .', 'allow'],
  ['chmod 644 nested/a.txt', 'allow'],
];

describe('a recursive change of mode or owner writes every entry below', () => {
  it.each(RECURSIVE_CHANGES)('%s -> %s', async (line, verdict) => {
    const check = await fx.check(line);
    expect(check.verdict, fx.said(check)).toBe(verdict);
  });
});

describe('options that follow links read through them', () => {
  it.each(FOLLOWING)('%s: %s does not run unasked', async (_command, line) => {
    const check = await fx.check(line);
    expect(check.verdict, fx.said(check)).not.toBe('allow');
  });

  it.each(NEAR_MISSES)('%s: near miss %s stays allowed', async (_command, line) => {
    const check = await fx.check(line);
    expect(check.verdict, fx.said(check)).toBe('allow');
  });

  it('a command that follows a link out is refused naming the path, not asked about an option', async () => {
    const check = await fx.check('ls -l --dereference links');
    expect(check.verdict).toBe('deny');
    expect(check.code).toBe('NOT_READABLE');
  });
});
