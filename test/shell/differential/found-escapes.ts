/**
 * Every escape the differential checker found: a command the checker allowed that, run for real, touched a
 * path outside what the verdict allowed. `@B@` is the fixture base (fuzz/shell/fixture.ts). `pending` rows
 * still escape on the current checker: they are skipped in found-escapes.test.ts (and tolerated by the slice)
 * until the checker is fixed, then the flag goes.
 */
export interface FoundEscape {
  command: string;
  /** The family of issue 12. */
  family: number;
  /** The syscall and path the run showed. */
  evidence: string;
  pending: boolean;
}

export const FOUND_ESCAPES: readonly FoundEscape[] = [
  { command: "find -L . -name secret.txt", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "find . -execdir cat {} +", family: 4, evidence: "openat @B@/outside", pending: true },
  { command: "cat self/../outside/secret.txt", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "grep -R CANARY .", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "du -L -a .", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "ls -RL", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "cat *", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "head -c 100 l*", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "env --chd=../outside cat secret.txt", family: 3, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "xargs --arg-f=../outside/secret.txt echo", family: 3, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "cp --target-dir=../outside a.txt", family: 3, evidence: "openat @B@/outside/a.txt", pending: true },
  { command: "diff --from=../outside/secret.txt a.txt", family: 3, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "sed -n --expr=\"w ../outside/pwned\" a.txt", family: 4, evidence: "openat @B@/outside/pwned", pending: true },
  { command: "chmod -w,a+rwx link-out-file", family: 5, evidence: "fchmodat @B@/outside/secret.txt", pending: true },
  { command: "sort --out=../outside/pwned a.txt", family: 3, evidence: "openat @B@/outside/pwned", pending: true },
  { command: "hash -p /bin/sh ls; ls evil.sh", family: 1, evidence: "openat @B@/outside/pwned-by-script", pending: true },
  { command: "shopt -s cdable_vars; o=@B@/outside; cd o; cat secret.txt", family: 1, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "set -a; read BASH_ENV <<< ./evil.sh; bash -c true", family: 6, evidence: "openat @B@/outside/pwned-by-script", pending: true },
  { command: "printf -v CDPATH %s ..; cd outside; cat secret.txt", family: 1, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "let 'x=a[$(cat link-out-file >&2)]'", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "declare -i 'x=a[$(cat link-out-file >&2)]'", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "x='a[$(cat link-out-file >&2)]'; echo $((x))", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "v='$(cat link-out-file)'; echo ${v@P}", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "[[ 1 -eq 'a[$(cat link-out-file >&2)]' ]]", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "sed '\\%x%w ../outside/pwned' a.txt", family: 4, evidence: "openat @B@/outside/pwned", pending: true },
  { command: "sed '/a/Ir link-out-file' a.txt", family: 4, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "awk 'BEGIN{ARGV[1]=\"link-out-file\"; ARGC=2} {print}'", family: 4, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "git -C nested status", family: 4, evidence: "openat @B@/outside/pwned-by-script", pending: true },
  { command: "cat */secret.txt", family: 5, evidence: "newfstatat @B@/outside", pending: true },
  { command: "grep -R CANARY", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "find -L . -type f -exec cat {} +", family: 4, evidence: "openat @B@/outside", pending: true },
  { command: "du -L .", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "ls -RL .", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "ln -s . self2 && cat self2/../outside/secret.txt", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "uniq l*-out-*", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "cd nested; git ls-files | wc -l", family: 0, evidence: "openat @B@/outside/pwned-by-script", pending: true },
  { command: "base64 -dd --wrap 10 ?ink-out-file", family: 3, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "grep alpha link-out-d*/*", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "comm <(cat ?ink-out-file) <(cat self/../*/secret.txt)", family: 5, evidence: "openat @B@", pending: true },
  { command: "tail --bytes=10 -n 2 l*-out-*", family: 3, evidence: "openat @B@/outside", pending: true },
  { command: "LC_ALL=C nl -w 1 link-*", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "F=@B@/ws-evil/secret.txt; ( du -h --dereference --max-depth 10 )", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "cp a.txt l*-out-file", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "LC_ALL=C diff --label '%s' rel-*/*", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "grep --inclu='*.txt' TODO ?ink-out-file", family: 3, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "comm -3 list.txt self/../ws-evil/secret.txt", family: 5, evidence: "openat @B@/ws-evil/secret.txt", pending: true },
  { command: "{ tail --quie -qn 5 self/../ws-evil/secret.txt | cat; }", family: 3, evidence: "openat @B@/ws-evil/secret.txt", pending: true },
  { command: "readlink --canonicalize-existing rel-*/*", family: 3, evidence: "openat @B@/outside", pending: true },
  { command: "cd -P self/..; cat outside/secret.txt", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "strings --all link-*", family: 5, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "R=F; F=link-out-file; echo `cat self/../*/secret.txt`", family: 5, evidence: "openat @B@", pending: true },
  { command: "tee out.txt <<-EOF\n\t$(cat link-out-file)\n\tEOF\n", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "export x='a[$(cat link-out-file >&2)]'; bash -c 'echo $((x))'", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "echo `cat **/secret.txt` & wait", family: 5, evidence: "newfstatat @B@/outside", pending: true },
  { command: "v='$(cat link-out-file)'; echo ${v@P} && if true; then tar -tf archive.tar -X data.json; else printf '%d\\n' 3; fi", family: 2, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "nl l*-out-*", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "F=../outside/secret.txt; case \"$PWD\" in *) date -u --utc -r **/secret.txt;; esac", family: 5, evidence: "newfstatat @B@/outside", pending: true },
  { command: "find -L self/.. -maxdepth 1", family: 5, evidence: "openat @B@", pending: true },
  { command: "od *", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "sed p <<EOF\n`cat ../outside/secret.txt`\nEOF\n < nested/file.txt", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "paste <(cat data.json) <(cat l*-out-*)", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "( sed --separate -f ../outside ./src/deep/y.ts )", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "paste -s --serial src/../a.txt >> rel-o?t/pwned", family: 5, evidence: "newfstatat @B@/outside", pending: true },
  { command: "while read -r l; do echo \"$l\"; done < rel-*/* | sed p", family: 1, evidence: "openat @B@/outside", pending: true },
  { command: "echo `cat link-*`", family: 5, evidence: "openat @B@/outside", pending: true },
  { command: "grep a <<-EOF\n\t$(cat link-out-file)\n\tEOF\n", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "R=F; F=link-out-file; xargs echo <<-EOF\n\t$(cat link-out-file)\n\tEOF\n", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "ls self/../*/secret.txt self/../outside/secret.txt", family: 5, evidence: "openat @B@", pending: true },
  { command: "cat <<-EOF\n\t$(cat link-out-file)\n\tEOF\n > out.txt", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
  { command: "xargs echo <<-EOF\n\t`cat ../outside/secret.txt`\n\tEOF\n 3> src/new.txt", family: 6, evidence: "openat @B@/outside/secret.txt", pending: true },
];
