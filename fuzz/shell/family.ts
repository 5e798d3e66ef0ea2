/**
 * The family of issue 12 an escaping command most likely belongs to, from its text (a triage hint for the
 * engineer fixing it, not a proof): 1 state-changing builtins, 2 expansions that execute, 3 options as the
 * tool reads them, 4 languages inside commands, 5 paths as the kernel resolves them, 6 heredocs, 7 words the
 * checker cannot resolve, 0 plain containment.
 */
export function guessFamily(command: string): number {
  if (/<<[^<]/.test(command)) return 6;
  if (/\blet\b|declare -i|unset '|\[\[|\(\(|\$\(\(|@[PEAQ]\}|\$\{!/.test(command)) return 2;
  if (/\b(hash|shopt|set -[a-z]|printf -v|read|declare|typeset|mapfile|readarray|source|alias|pushd|popd|enable|trap|ulimit|umask|exec \d)\b|CDPATH|BASH_ENV|PATH=|^\. /.test(command)) return 1;
  if (/^\s*(sed|awk|mawk|gawk|git|tar|jq)\b|\|\s*(sed|awk|git|tar)\b|find .*-(exec|ok|fprint|fls|delete|files0)/.test(command)) return 4;
  if (/\s-[a-zA-Z]*[RLh][a-zA-Z]*\b|\s--(dereference|recursive)/.test(command)) return 5;
  if (/(^|\s)--?[a-zA-Z]/.test(command) && /--[a-z]+[-=]|\s-[a-zA-Z]{2,}|\s-t\s/.test(command)) return 3;
  if (/\*|\?|\[|link-|rel-out|self\/|\.\.|\s-[RLh]\b|\bln -s\b/.test(command)) return 5;
  if (/\$|`/.test(command)) return 7;
  return 0;
}
