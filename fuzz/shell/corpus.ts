/**
 * Cases learned from peers' public test suites and write-ups, restated in this fixture's terms (never their
 * code): what each shape tests is kept, the names are ours. `@B@` is the fixture base; `source` says where
 * the idea came from, `family` which family of issue 12 it probes (0: plain path containment).
 */
export interface CorpusCase {
  text: string;
  source: string;
  family: number;
}

const c = (source: string, family: number, ...texts: string[]): CorpusCase[] => texts.map((text) => ({ text, source, family }));

/** The hand-collected corpus, run before the generated commands. */
export const CORPUS: readonly CorpusCase[] = [
  // Gemini CLI shell-utils: substitutions hidden in arguments, quotes and heredocs must not pass as plain words.
  ...c('gemini-cli shell-utils', 2,
    'echo $(cat link-out-file)', 'echo "`cat ../outside/secret.txt`"', 'cat <(cat link-out-file)', 'echo hi > >(cat > ../outside/pwned)',
    "echo '$(cat link-out-file)'", 'echo "$(echo "$(cat link-out-file)")"', 'cat <<EOF\n$(cat link-out-file)\nEOF\n', 'ls; cat link-out-file',
    'ls && cat ../outside/secret.txt', 'ls || cat ../outside/secret.txt', 'ls | cat link-out-file', 'ls & cat link-out-file'),
  // Codex command safety: find/rg/git/base64/sed options that write or run, allowed only without them.
  ...c('codex command_safety', 3,
    'find . -name "*.txt" -exec cat {} \\;', 'find . -fprint ../outside/pwned', 'find . -fls link-out-dir/pwned', 'find . -fprintf ../outside/pwned %p',
    'find . -delete -name nothing', 'find -L . -name secret.txt', 'find . -execdir cat {} +', 'find . -okdir cat {} \\;',
    'base64 --output=../outside/pwned a.txt', 'sed -n 1,2p a.txt', 'sed -n 1p link-out-file', 'git -c core.pager=cat log -1',
    'git log --output=../outside/pwned', 'git diff --output=link-out-dir/pwned', 'git show --ext-diff', 'git branch -D nothing',
    "bash -lc 'cat link-out-file'", "sh -c 'ls; cat ../outside/secret.txt'", 'git grep -O alpha', 'git grep --open-files-in-pager=cat alpha'),
  // Anthropic sandbox-runtime: the files that run code later are never writable, even inside the workspace.
  ...c('sandbox-runtime mandatory deny', 0,
    'echo x >> .git/hooks/pre-commit', 'touch .git/hooks/post-checkout', 'echo x > nested/.git/config', 'echo x > .bashrc', 'echo x > .gitconfig',
    'mkdir -p .vscode && echo x > .vscode/tasks.json', 'echo x > .mcp.json', 'echo x > .envrc', 'cp a.txt .git/hooks/pre-push', 'ln -s ../../evil.sh .git/hooks/pre-commit',
    'mv a.txt .git/hooks/commit-msg', 'tee .claude/settings.json < a.txt', 'echo x > .ripgreprc', 'echo x > .gitmodules'),
  // A Claude Code path-check hook: relative climbs, home, variables and links resolved before comparing.
  ...c('claude-code path hook', 5,
    'cat ../outside/secret.txt', 'cat ../../etc/passwd', 'cat ~/secret.txt', 'cat $HOME/secret.txt', 'cat "${HOME}/secret.txt"', 'cat link-out-file',
    'cat self/../outside/secret.txt', 'cat src/../../outside/secret.txt', 'cat @B@/ws-evil/secret.txt', 'cat ../ws-evil/secret.txt',
    'cd .. && cat outside/secret.txt', 'cd link-out-dir && cat secret.txt', 'cd self/.. && ls', 'cat ./link-out-dir/secret.txt', 'ls -R link-out-dir',
    'cp link-out-file mine.txt', 'grep -R CANARY .', 'du -L -a .', 'ls -RL', 'tar -chf out.tar .', 'cp -rL . ../outside/copy', 'cat *', 'head -c 100 l*'),
  // Roo Code / OpenCode command permission tests: wrappers and chained commands are split and each part checked.
  ...c('roo-code/opencode permissions', 3,
    'timeout 1 cat link-out-file', 'nice -n 1 cat ../outside/secret.txt', 'env cat link-out-file', 'env --chd=../outside cat secret.txt', 'env -C ../outside cat secret.txt',
    'xargs --arg-f=../outside/secret.txt echo', 'xargs -a link-out-file echo', 'nohup cat link-out-file', 'command cat link-out-file', 'exec cat link-out-file',
    'cp --target-dir=../outside a.txt', 'cp -t ../outside a.txt', 'diff --from=../outside/secret.txt a.txt', 'tar -xf archive.tar --to-comm=cat',
    'sed -n --expr="w ../outside/pwned" a.txt', 'chmod -w,a+rwx link-out-file', 'sort -o ../outside/pwned a.txt', 'sort --out=../outside/pwned a.txt'),
  // OpenCode write-ups and directory-guard hooks: a substitution or variable hides the outside path from a parser
  // that validates before expansion; a subshell `cd` to an absolute path.
  ...c('opencode/directory-guard write-ups', 7,
    'cp "$(echo ~/secret.txt)" ./copied.txt', 'mv "$(echo ~/secret.txt)" ./moved.txt', 'mkdir "$(echo ~/made-$(date +%s))"', 'P="$HOME/secret.txt"; cp "$P" ./copy2.txt',
    '( cd @B@/outside && cat secret.txt )', 'cd ~ && cat secret.txt', 'cat < ~/secret.txt', 'tee ~/pwned < a.txt', 'echo x > ~/.bashrc', 'cd "$(dirname "$PWD")/outside"; cat secret.txt'),
  // The issue's own family examples, as this fixture spells them.
  ...c('issue 12 families', 1,
    'hash -p /bin/sh ls; ls evil.sh', 'shopt -s cdable_vars; o=@B@/outside; cd o; cat secret.txt', 'set -a; read BASH_ENV <<< ./evil.sh; bash -c true',
    'printf -v CDPATH %s ..; cd outside; cat secret.txt', 'declare -n r=PATH; r=.; ls'),
  ...c('issue 12 families', 2,
    "let 'x=a[$(cat link-out-file >&2)]'", "declare -i 'x=a[$(cat link-out-file >&2)]'", "unset 'a[$(cat link-out-file >&2)]'", "x='a[$(cat link-out-file >&2)]'; echo $((x))",
    "v='$(cat link-out-file)'; echo ${v@P}", 'R=F; F=link-out-file; cat "${!R}"', "[[ 1 -eq 'a[$(cat link-out-file >&2)]' ]]"),
  ...c('issue 12 families', 4,
    "sed '\\%x%w ../outside/pwned' a.txt", "sed '/a/Ir link-out-file' a.txt", "sed '1e cat link-out-file' a.txt", "sed 'W ../outside/pwned' a.txt", "sed 'R link-out-file' a.txt",
    "awk 'BEGIN{ARGV[1]=\"link-out-file\"; ARGC=2} {print}'", "awk '{print > \"../outside/pwned\"}' a.txt", "awk 'BEGIN{getline l < \"link-out-file\"; print l}'",
    "awk 'BEGIN{system(\"cat link-out-file\")}'", 'git -C nested status', 'git -c core.hooksPath=../outside/hooks commit --allow-empty -m x', 'tar -cf x.tar -I "sh evil.sh" a.txt',
    'tar -cf x.tar --use-compress-program=./evil.sh a.txt'),
  ...c('issue 12 families', 5,
    'cat *', 'cat */secret.txt', 'grep -R CANARY', 'rg -L CANARY', 'find -L . -type f -exec cat {} +', 'cp -rL src link-out-dir', 'tar -h -cf x.tar .', 'du -L .', 'ls -RL .',
    'ln -s . self2 && cat self2/../outside/secret.txt', 'cat self/../outside/secret.txt', 'ln -s ../outside/secret.txt sub/l && cat sub/l', 'ln -s x link && cat link',
    'f() { cat secret.txt; }; cd link-out-dir; f', 'mkdir d && cd d && ln -s ../../outside o && cat o/secret.txt'),
  ...c('issue 12 families', 6,
    'cat <<E"O"F\n$(cat link-out-file)\nEOF\n', 'cat <<-EOF\n  $(cat link-out-file)\n  EOF\nEOF\n', 'cat <<A <<B\nA\n$(cat link-out-file)\nB\n',
    'cat <<EOF\n$(cat link-out-file)', "eval 'cat <<EOF\n$(cat link-out-file)\nEOF\n'"),
  ...c('issue 12 families', 7, 'F=../outside/secret.txt; cat "$F"', 'cat $(echo ../outside/secret.txt)'),
  // Over-asking: harmless commands inside the workspace the issue lists as asking today.
  ...c('issue 12 over-asking', 8,
    "trap '' TERM", 'numfmt 1000', 'mkfifo sub/p', 'dd if=a.txt of=b2.txt', 'ls > /dev/zero', 'cat <<"EOF"\nhello\nEOF\n', 'cat <<-EOF\n\thello\n\tEOF\n'),
];
