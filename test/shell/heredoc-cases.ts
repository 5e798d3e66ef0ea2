/**
 * Here-document attacks and near misses, in the terms of both hostile fixtures (`link-out-file` leads to the outside
 * canary). `runs` says what real bash does with the payload (`cat link-out-file`, read outside): true when it runs,
 * which the sandboxed differential test confirms row by row. Every row that runs it must be refused.
 */
export interface HeredocCase {
  command: string;
  expected: 'allow' | 'refuse' | 'deny';
  runs: boolean;
  why: string;
}

const row = (command: string, expected: HeredocCase['expected'], runs: boolean, why: string): HeredocCase => ({ command, expected, runs, why });

export const HEREDOC_CASES: readonly HeredocCase[] = [
  // The delimiter line, exactly as bash matches it.
  row('cat <<EOF\nEO\\\nF\ncat link-out-file\nEOF\n', 'deny', true, 'an unquoted body joins backslash-newline before comparing: EO\\ + F is the delimiter'),
  row("cat <<'EOF'\nEO\\\nF\ncat link-out-file\nEOF\n", 'allow', false, 'a quoted body joins nothing: the payload is data'),
  row('cat <<EOF\nfoo\\\nEOF\ncat link-out-file\nEOF\n', 'allow', false, 'foo\\ + EOF joins into fooEOF, not the delimiter'),
  row('cat <<EOF\nEO\\\\\nF\ncat link-out-file\nEOF\n', 'allow', false, 'an escaped backslash does not join'),
  row('cat <<-EOF\n\t\tEOF\ncat link-out-file\nEOF\n', 'deny', true, '<<- strips leading tabs before comparing'),
  row('cat <<-EOF\n  EOF\ncat link-out-file\nEOF\n', 'allow', false, '<<- strips tabs only, not spaces'),
  row('cat <<EOF\n\tEOF\ncat link-out-file\nEOF\n', 'allow', false, '<< strips nothing'),
  row('cat <<EOF\nEOF \ncat link-out-file\nEOF\n', 'allow', false, 'a trailing space is part of the line'),
  row("cat <<'EOF '\nEOF \ncat link-out-file\nEOF\n", 'deny', true, 'a quoted trailing space is part of the delimiter'),
  row('cat <<EOF\nEOF; cat link-out-file\nEOF\n', 'allow', false, 'outside a command substitution the whole line must be the delimiter'),
  row('cat <<"E\\"F"\nE"F\ncat link-out-file\nE\\"F\n', 'deny', true, 'in double quotes \\" is a quote: the delimiter is E"F'),
  row("cat <<'E\\\"F'\nE\"F\ncat link-out-file\nE\\\"F\n", 'allow', false, 'in single quotes the backslash stays: the delimiter is E\\"F'),
  row('cat <<E"O"F\n$(cat link-out-file)\nEOF\n', 'allow', false, 'a partly quoted delimiter makes the body data'),
  row('cat <<\\EOF\n$(cat link-out-file)\nEOF\n', 'allow', false, 'a backslash quotes the delimiter'),
  row("cat <<$'E\\tF'\nE\tF\ncat link-out-file\nEOF\n", 'deny', true, "$'...' is decoded when the delimiter is read"),
  row("cat <<''\n\ncat link-out-file\n", 'deny', true, 'an empty delimiter ends at the first empty line'),
  row('cat <<E\\\nOF\nhi\nEOF\ncat link-out-file\n', 'deny', true, 'a line continuation inside the delimiter word'),
  row('cat <\\\n<EOF\n$(cat link-out-file)\nEOF\n', 'deny', true, 'a line continuation inside the operator'),
  row("cat <<'EOF'\r\nEOF\r\ncat link-out-file\n", 'refuse', true, 'a carriage return belongs to the delimiter; the parser reads it as a blank'),
  row('cat <<EOF\nEOF\r\ncat link-out-file\nEOF\n', 'allow', false, 'EOF\\r is not the delimiter EOF'),
  // Several here-documents, consumed in order.
  row('cat <<A <<B\nA\ncat link-out-file\nB\n', 'allow', false, 'two on one line: the payload is the second body'),
  row('cat <<A; cat <<B\nA\nB\ncat link-out-file\n', 'deny', true, 'two on one line, then a command'),
  row('cat <<A <<B\nB\nA\n$(cat link-out-file)\nB\n', 'deny', true, 'B ends nothing in the first body; the second body expands'),
  row("cat <<A <<'B'\n$(cat link-out-file)\nA\nsafe\nB\n", 'deny', true, 'every body is expanded, not only the last stdin'),
  row('cat <<EOF; echo "a\ncat link-out-file\nEOF\nb"\n', 'allow', false, 'the body starts after the line that ends the command, past a quoted newline'),
  row('cat <<EOF; echo "a\nb"\n$(cat link-out-file)\nEOF\n', 'deny', true, 'the body after the quoted newline expands'),
  row(`cat ${'<<a '.repeat(16)}\n${'a\n'.repeat(16)}cat link-out-file\n`, 'deny', true, 'sixteen bodies on one line, then a command'),
  row(`cat ${'<<a '.repeat(17)}\n${'a\n'.repeat(17)}cat link-out-file\n`, 'refuse', false, 'bash refuses a seventeenth pending here-document and runs nothing'),
  // Where a here-document stands.
  row('true && cat <<EOF | grep a\n$(cat link-out-file)\nEOF\n', 'deny', true, 'after a list, in a pipeline'),
  row('x=$(cat <<EOF\n$(cat link-out-file)\nEOF\n)\n', 'deny', true, 'inside $(...)'),
  row('x=$(<<EOF\n$(cat link-out-file)\nEOF\n)\n', 'deny', true, 'a redirection alone still expands its body'),
  row('while read -r l; do echo "$l"; done <<EOF\n$(cat link-out-file)\nEOF\n', 'deny', true, 'on a loop'),
  row('f() { cat <<EOF\n$(cat link-out-file)\nEOF\n}; f\n', 'deny', true, 'in a function, checked where it is called'),
  row('cat <<EOF link-out-file\nhi\nEOF\n', 'deny', true, 'a word after the delimiter is an argument'),
  row('echo $(cat <<EOF) x\n$(cat link-out-file)\nEOF\n', 'deny', true, 'a body still pending when $( closes comes from the next line'),
  row('echo $(cat <<EOF) "x\nbody\nEOF\ncat link-out-file"\n', 'allow', false, 'the line after the body continues the quoted word'),
  row("bash -c 'cat <<EOF\n$(cat link-out-file)\nEOF\n'", 'deny', true, 'inside bash -c'),
  row("eval 'cat <<EOF\n$(cat link-out-file)\nEOF\n'", 'deny', true, 'inside eval'),
  // bash's rule for command substitutions: a line that starts with the delimiter and holds a ) ends the body.
  row('echo $(cat <<EOF\nhi\nEOF cat link-out-file)\n', 'deny', true, 'the rest of the delimiter line is code'),
  row('echo "$( (cat <<EOF\nhi\nEOF cat link-out-file) )"\n', 'deny', true, 'also in a subshell inside $(...)'),
  row('x=$(cat <<A; cat <<B\nA cat link-out-file)\nbody\nB\necho "$x"\n', 'deny', true, 'the next body goes on from the next line, the rest of the line is code after it'),
  row('cat <<EOF\nEOF cat link-out-file)\nEOF\n', 'allow', false, 'the rule holds only inside a command substitution'),
  row("x=$(cat <<'EOF'\nhi ) there\nEOF\n)\n", 'allow', false, 'a ) in a line that does not start with the delimiter'),
  // The body: data when quoted, expanded like a word when not.
  row('cat <<EOF\n`cat link-out-file`\nEOF\n', 'deny', true, 'a backquoted command'),
  row('cat <<EOF\n\\`cat link-out-file\\`\nEOF\n', 'allow', false, 'escaped backquotes are text'),
  row('cat <<EOF\n`echo \\" ; cat link-out-file ; echo \\"`\nEOF\n', 'deny', true, 'in a body a backslash does not escape " inside backquotes'),
  row('cat <<EOF\na "quoted" $(cat link-out-file) b\nEOF\n', 'deny', true, 'double quotes are plain text in a body'),
  row("cat <<EOF\n'$(cat link-out-file)'\nEOF\n", 'deny', true, 'single quotes are plain text in a body'),
  row('cat <<EOF\n${x:-$(cat link-out-file)}\nEOF\n', 'deny', true, 'a substitution inside ${...}'),
  row('cat <<EOF\n\\$(cat link-out-file)\nEOF\n', 'allow', false, 'an escaped $ is text'),
  row('cat <<EOF\n$(cat <<X\n$(cat link-out-file)\nX\n)\nEOF\n', 'deny', true, 'a here-document inside a substitution inside a body'),
  row('cat <<-EOF\n\t$(cat link-out-file)\n\tEOF\n', 'deny', true, 'a <<- body expands too'),
  row('cat <<EOF\n$(cat link-out-file)', 'deny', true, 'a body the input ends'),
  // << that is no here-document.
  row('echo $((1<<2))\ncat link-out-file\n', 'deny', true, 'a shift in arithmetic'),
  row('(( x = 1 << 2 ))\ncat link-out-file\n', 'deny', true, 'a shift in an arithmetic command'),
  row('echo hi # <<EOF\ncat link-out-file\nEOF\n', 'deny', true, 'a comment'),
  row("echo '<<EOF'\ncat link-out-file\nEOF\n", 'deny', true, 'single quotes'),
  row('cat <<<EOF\ncat link-out-file\n', 'deny', true, 'a here-string'),
  row('echo `cat <<EOF`\ncat link-out-file\nEOF\n', 'refuse', true, 'inside backquotes the body is only what the backquotes hold'),
  // Forms not followed: they ask.
  row('cat <<$(echo EOF)\nhi\nEOF\n', 'refuse', false, 'bash prints a substitution in a delimiter again before comparing'),
  row('cat <<"$(echo x)"\nhi\n$(echo x)\n', 'refuse', false, 'an expansion in a delimiter, even quoted'),
];

/** Harmless forms agents write: none may ask. */
export const HEREDOC_NEAR_MISSES: readonly string[] = [
  'cat <<-EOF\n\thello\n\t\tworld\n\tEOF\n',
  'cat <<-EOF > out.txt\n\tindented\n\tEOF',
  'cat <<A <<B\na\nA\nb\nB\n',
  'cat <<A; cat <<B\na\nA\nb\nB\n',
  'cat <<EOF\nhello',
  'cat <<EOF\nhello\n',
  "bash -c 'cat <<EOF\nhi\nEOF\n'",
  "eval 'cat <<EOF\nhi\nEOF\n'",
  'echo $((1<<2))',
  'echo $(( 1 << 2 )) $[1<<3]',
  '(( x = 1 << 3 )); echo $x',
  "let 'x = 1 << 2'",
  'for ((i = 1; i < 1 << 3; i <<= 1)); do echo $i; done',
  'cat <<EOF | grep -c a\na\nb\nEOF\n',
  'cat a.txt | cat - <<EOF && echo done\nhi\nEOF\n',
  'x=$(cat <<EOF\nhi $HOME\nEOF\n); echo "$x"',
  'echo "$(cat <<EOF\nnested $(echo inner)\nEOF\n)"',
  "cat > notes.md <<'EOF'\n# Notes\nUse `make` and $(date) here.\nEOF\n",
  'cat <<EOF > out.txt\nsum: $((1 + 2)), home: ${HOME}, date: $(date)\nEOF\n',
  "git commit -F - <<'EOF'\nFix the parser\n\nLonger text.\nEOF\n",
  'sed s/a/b/ <<EOF > out.txt\naaa\nEOF\n',
  'diff <(cat <<A\nx\nA\n) <(cat <<B\ny\nB\n)',
  "x=$(cat <<'EOF'\nhi ) there\nEOF\n)",
  'cat <<EOF a.txt\nhi\nEOF\n',
  'cat <<"EOF"\nhello\nEOF\n',
  'cat << EOF\nhi\nEOF',
  'tee out.txt <<EOF >/dev/null\nline\nEOF\n',
  'while read -r l; do echo "$l"; done <<EOF\na.txt\nEOF\n',
  'case x in x) cat <<EOF;;\nin a case\nEOF\nesac',
  'if true; then cat <<EOF\nin an if\nEOF\nfi',
  'wc -l <<EOF\n`echo hi`\nEOF\n',
  'f() { case x in x) cat <<EOF;;\nin a function\nEOF\nesac; }; f',
  'function g { case x in x) echo "$(cat <<EOF\nhi\nEOF\n)";; esac; }; g',
  'x=$(case y in y) cat <<EOF;;\nin\nEOF\nesac); echo "$x"',
];
