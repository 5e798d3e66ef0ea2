import fs from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, type Runtime, type Session } from '../../runtime/index.js';
import { makeTempTree, type TempTree } from '../helpers/temp-workspace.js';

// Without the OS sandbox the static check is all there is. A `.git` that is a file (`gitdir: ../gd`) or a symlink
// makes git take another directory, whose hooks and config the command wrote, as the repository. The check cannot
// tell `mkdir sub/.git` from `> sub/.git` by the path alone; it knows from the command what is left there: a
// redirect, touch, tee, truncate or mkfifo leave a file, ln a link, cp or mv of a file (or of a tree holding one)
// a file.
let rt: Runtime;
let ws: TempTree;
let s: Session;

beforeAll(async () => {
  rt = await createRuntime({ idleWorkers: 1 });
});
afterAll(async () => {
  await rt.close();
});
beforeEach(async () => {
  ws?.cleanup();
  ws = makeTempTree('tw-static-gitfile', { 'gd/HEAD': 'ref: refs/heads/main\n', 'gitdir.txt': 'gitdir: ../gd\n', 'sub/a.txt': 'a\n', 'tree/x.txt': 'x\n', 'wt/.git': 'gitdir: ../gd\n', 'wt/a.txt': 'a\n', 'old/.git/HEAD': 'ref: refs/heads/main\n' });
  s = await rt.openSession({ workspaceRoot: ws.root, tools: ['bash'], sandbox: 'off', excludedPaths: [] });
});

describe('the static check and a .git file or symlink (sandbox off)', () => {
  it.each([
    ['a redirect into sub/.git', 'echo "gitdir: ../gd" > sub/.git'],
    ['an appending redirect', 'echo "gitdir: ../gd" >> sub/.git'],
    ['a redirect at the top', 'echo "gitdir: gd" > .git'],
    ['a redirect after cd', 'cd sub && echo "gitdir: ../gd" > .git'],
    ['tee', 'echo "gitdir: ../gd" | tee sub/.git'],
    ['touch', 'touch sub/.git'],
    ['truncate', 'truncate -s 0 sub/.git'],
    ['cp of a file', 'cp gitdir.txt sub/.git'],
    ['mv of a file', 'mv gitdir.txt sub/.git'],
    ['cp of a file into a directory as .git', 'cp gitdir.txt tree/.git'],
    ['a symlink', 'ln -s ../gd sub/.git'],
    ['a symlink named by its target', 'cd sub && ln -s ../gd/.git'],
    ['a case variant', 'echo "gitdir: ../gd" > sub/.GIT'],
    ['a copied tree that holds a .git file', 'cp -r wt copy'],
    // Every writer leaves a file unless it says otherwise (attacker pass: these had no kind).
    ['sort -o', "sort -o sub/.git - <<< 'gitdir: ../gd'"],
    ['uniq', 'uniq gitdir.txt sub/.git'],
    ['dd of=', 'dd if=gitdir.txt of=sub/.git'],
    ['a sed w command', "echo 'gitdir: ../gd' | sed -n 'w sub/.git'"],
    ['a sed s///w flag', "echo 'gitdir: ../gd' | sed -n 's/x/y/w sub/.git'"],
    ['a backup name', "echo 'gitdir: ../gd' > sub/.g && cp -b -S it sub/a.txt sub/.g"],
    ['time -o', 'time -o sub/.git true'],
    ['git log --output', "git log -1 --format='tformat:gitdir: ../gd' --output=sub/.git"],
    ['git show --output after cd', "git -C sub show -s --pretty='tformat:gitdir: ../gd' --output=.git"],
    ['git diff --output', 'git diff --no-index --output=sub/.git gitdir.txt sub/a.txt'],
    ['git archive -o', 'git archive -o sub/.git HEAD'],
    ['a redirect where an earlier command removed the .git directory', 'rm -rf old/.git && echo "gitdir: ../gd" > old/.git'],
    ['a redirect where an earlier command moved the .git directory away', 'mv old/.git old/x && echo "gitdir: ../gd" > old/.git'],
    // A source the line itself made was not there at check time, so what it is was not known (attacker pass).
    ['mv of a file the line made', "echo 'gitdir: ../gd' > f && mv f sub/.git"],
    ['cp of a file the line made', "echo 'gitdir: ../gd' > f; cp f sub/.git"],
    ['mv -T of a file touch made', 'touch f && mv -T f sub/.git'],
    ['a hard link to a file the line made', 'touch g && ln -T g sub/.git'],
    ['mv of a fifo the line made', 'mkfifo ff && mv ff sub/.git'],
    ['mv of a file the line made in a directory it made', "mkdir -p d && echo 'gitdir: ../gd' > d/.gi && mv d/.gi sub/.git"],
    ['mv of a file the line copied', 'cp gitdir.txt sub/ && mv sub/gitdir.txt sub/.git'],
  ])('refuses %s: %s', async (_name, command) => {
    const result = await s.call('bash', { command });
    expect(result, result.content[0]?.text).toMatchObject({ isError: true, code: 'BLOCKED_PATH' });
    for (const p of ['sub/.git', 'sub/.GIT', '.git', 'tree/.git', 'copy', 'old/x', 'sub/.g']) expect(fs.existsSync(ws.at(p)), p).toBe(false);
    expect(fs.existsSync(ws.at('gitdir.txt'))).toBe(true);
    expect(fs.statSync(ws.at('old/.git')).isDirectory()).toBe(true);
  });

  it.each([
    ['an empty nested .git directory', 'mkdir -p sub/.git', 'sub/.git'],
    ['a file named like it', 'echo x > sub/.gitx', 'sub/.gitx'],
    ['a file in a nested .git directory', 'mkdir -p sub/.git && echo "ref: refs/heads/main" > sub/.git/HEAD', 'sub/.git/HEAD'],
    ['a .gitignore', 'echo dist > .gitignore', '.gitignore'],
    ['a copy of a directory as .git', 'cp -r tree sub/.git', 'sub/.git/x.txt'],
    ['a redirect into an existing .git directory fails harmlessly', 'echo x > old/.git || true', 'old/.git/HEAD'],
    ['a file named .git-keep', 'mkdir -p src && touch src/.git-keep', 'src/.git-keep'],
    ['a copy of a tree holding a .git directory', 'cp -r old old2', 'old2/.git/HEAD'],
    ['touch of an existing .git directory', 'touch old/.git', 'old/.git/HEAD'],
    ['sort with a temporary directory named .git', 'mkdir -p t/.git && sort -T t/.git gitdir.txt', 't/.git'],
    ['chmod of a .git directory the line made', 'mkdir -p x/.git && chmod 700 x/.git', 'x/.git'],
    ['mv of a file the line made to an ordinary name', "echo 'notes' > f && mv f sub/notes.txt", 'sub/notes.txt'],
  ])('near miss: allows %s', async (_name, command, made) => {
    const result = await s.call('bash', { command });
    expect(result.isError, result.content[0]?.text).toBeUndefined();
    expect(fs.existsSync(ws.at(made))).toBe(true);
  });
});

// Forms whose effect the check cannot model ask; with no approver the call fails and nothing lands (attacker pass).
describe('forms the static check cannot place ask (sandbox off, no approver)', () => {
  it.each([
    ['git rm, then a file where the removed tree stood, moved to .git', "git rm -rq tree && echo 'gitdir: ../gd' > tree && mv tree sub/.git", 'sub/.git'],
    ['git rm of the last file, then the emptied directory moved to .git', "git rm -q tree/x.txt && echo 'gitdir: ../gd' > tree && mv tree sub/.git", 'sub/.git'],
    ['cp --parents planting a hook in a nested repository', 'mkdir -p hooks && echo "touch /tmp/x" > hooks/pre-commit && cp --parents hooks/pre-commit old/.git', 'old/.git/hooks/pre-commit'],
    // ESC: a name of this workspace's own, since the copy would land beside the workspace, in the shared temp dir.
    ['cp --parents replaying .. above the workspace', 'echo pwned > ESC && cd sub && cp --parents ../ESC ..', '../ESC'],
  ])('%s: %s', async (_name, template, outside) => {
    const escape = `esc-${ws.root.split('/').pop() ?? ''}`;
    const [command, landed] = [template, outside].map((text) => text.replaceAll('ESC', escape)) as [string, string];
    const result = await s.call('bash', { command });
    expect(result.isError, result.content[0]?.text).toBe(true);
    expect(result.code).toBe('APPROVAL_DENIED');
    expect(fs.existsSync(ws.at(landed))).toBe(false);
    expect(fs.existsSync(ws.at('hooks'))).toBe(false);
  });
});
