import { COMMAND_GENS, type CommandGen } from './commands.js';
import { Gen, type Generated } from './gen.js';
import { VARIABLE_SETUPS } from './paths.js';
import { Rng } from './prng.js';

type Construct = (g: Gen, depth: number) => string;

const simple = (g: Gen): string => {
  const pool = g.benign ? COMMAND_GENS.filter((c) => c.benign) : COMMAND_GENS;
  const c: CommandGen = g.rng.weighted(pool.map((x) => [x.weight, x] as const));
  g.tag(`cmd:${c.name}`);
  return c.build(g);
};

const redirect = (g: Gen): string => {
  const forms: [number, () => string][] = [
    [4, () => `> ${g.write()}`], [2, () => `>> ${g.write()}`], [3, () => `< ${g.read()}`], [2, () => `2> ${g.write()}`], [1, () => `&> ${g.write()}`],
    [2, () => '2>&1'], [2, () => '> /dev/null'], [1, () => `>| ${g.write()}`], [1, () => `3> ${g.write()}`], [1, () => '> /dev/zero'], [1, () => `<> ${g.write()}`],
    [1, () => `0< ${g.read()}`], [1, () => `2>> ${g.write()}`],
  ];
  return g.rng.weighted(forms)();
};

const heredoc = (g: Gen): [string, string] => {
  const body = g.benign ? g.pick(['hello', 'a\nb', '$PWD', '$((1+2))']) : g.pick(['hello', '$(cat link-out-file)', '`cat ../outside/secret.txt`', '${HOME}', '$(cat pathfile.txt)', 'x']);
  if (/\$\(|`/.test(body)) g.hostile();
  const kind = g.rng.int(0, 3);
  g.tag(`construct:heredoc${['', '-quoted', '-dash', '-string'][kind]}`);
  if (kind === 0) return ['<<EOF', `${body}\nEOF`];
  if (kind === 1) return ["<<'EOF'", `${body}\nEOF`];
  if (kind === 2) return ['<<-EOF', `\t${body}\n\tEOF`];
  return [`<<< "${body}"`, ''];
};

const CONSTRUCTS: readonly (readonly [number, string, Construct])[] = [
  [30, 'simple', (g) => simple(g)],
  [12, 'redirect', (g, d) => `${node(g, d)} ${redirect(g)}`],
  [5, 'heredoc', (g) => {
    const [op, body] = heredoc(g);
    const cmd = g.pick(['cat', 'wc -l', 'grep a', 'sed p', 'tee out.txt', 'xargs echo']);
    return body === '' ? `${cmd} ${op}` : `${cmd} ${op}\n${body}\n`;
  }],
  [8, 'list', (g, d) => `${node(g, d)}${g.pick(['; ', ' && ', ' || '])}${node(g, d)}`],
  [8, 'pipe', (g, d) => `${node(g, d)} | ${g.pick(['cat', 'wc -l', 'sort', 'head -1', 'grep a', `tee ${g.write()}`, 'xargs cat', 'sh', 'bash', 'sed p', 'uniq'])}`],
  [3, 'subshell', (g, d) => `( ${node(g, d)} )`],
  [3, 'group', (g, d) => `{ ${node(g, d)}; }`],
  [3, 'if', (g, d) => `if ${g.pick(['true', `test -e ${g.read()}`, '[ -n "$PWD" ]'])}; then ${node(g, d)}; else ${node(g, d)}; fi`],
  [4, 'for', (g) => `for f in ${g.read()} ${g.read()}; do ${g.pick(['cat', 'wc -l', 'head -1', 'cp', 'rm -f'])} "$f"${g.chance(0.2) ? ` ${g.write()}` : ''}; done`],
  [2, 'while', (g) => {
    const body = g.pick(['cat', 'echo', 'wc -c', 'rm']);
    const input = g.pick(['list.txt', 'pathfile.txt', g.read()]);
    // pathfile.txt names a file outside: reading it line by line is hostile; list.txt names workspace files.
    if (input === 'pathfile.txt' && body !== 'echo') g.hostile();
    return `while read -r l; do ${body} "$l"; done < ${input}`;
  }],
  [3, 'function', (g, d) => `f() { ${node(g, d)}; }; ${g.chance(0.4) ? `cd ${g.dir()}; ` : ''}f`],
  [6, 'cd', (g, d) => `cd ${g.dir()}${g.pick([' && ', '; '])}${node(g, d)}`],
  [5, 'assign', (g, d) => `${hostileSetup(g, g.pick(VARIABLE_SETUPS))}; ${node(g, d)}`],
  [2, 'assign-prefix', (g) => `${hostileSetup(g, g.pick(['F=a.txt', 'X=1', 'LC_ALL=C', 'F=link-out-file']))} ${simple(g)}`],
  [3, 'process-subst', (g) => `${g.pick(['diff', 'cat', 'paste', 'comm'])} <(cat ${g.read()}) <(${g.pick(['echo x', `cat ${g.read()}`, 'sort a.txt'])})`],
  [1, 'process-subst-out', (g) => `echo hi > >(cat > ${g.write()})`],
  [3, 'command-subst', (g) => g.pick([`echo "$(cat ${g.read()})"`, `x=$(cat ${g.read()}); echo "$x"`, `wc -l $(echo ${g.read()})`, `echo \`cat ${g.read()}\``])],
  [2, 'arith', (g) => g.pick(['echo $((1+2*3))', '(( x = 2 + 3 )); echo $x', 'let x=4; echo $x', 'echo $(( 10 / 2 ))', 'i=0; ((i++)); echo $i'])],
  [3, 'expansion', (g) => g.pick([`F=${g.read()}; cat "\${F}"`, 'x=abc; echo ${x#a} ${x%c} ${#x} ${x/b/B} ${x^^}', `F=${g.read()}; cat \${F:-a.txt}`, 'echo ${UNSET:-a.txt}', `cat \${UNSET:-${g.read()}}`, 'a=(x y); echo "${a[@]}" ${#a[@]}'])],
  [2, 'background', (g, d) => `${node(g, d)} & wait`],
  [1, 'negate', (g, d) => `! ${node(g, d)}`],
  [2, 'case', (g, d) => `case "$PWD" in *) ${node(g, d)};; esac`],
  [2, 'brace-expansion', (g) => {
    const word = g.pick(['{a,b}.txt', 'src/{x,deep/y}.ts', '{a.txt,link-out-file}', '{../outside,src}/secret.txt', '{a..b}.txt']);
    if (/link|outside/.test(word)) g.hostile('path:link');
    return `cat ${word}`;
  }],
];

// A setup that names a hostile path or moves the cwd out is not harmless, even when nothing reads the variable.
function hostileSetup(g: Gen, setup: string): string {
  if (/link-out|outside|ws-evil|\$\(|cd /.test(setup)) g.hostile();
  return setup;
}

function node(g: Gen, depth: number): string {
  if (depth >= 2) return simple(g);
  const [, name, build] = g.rng.weighted(CONSTRUCTS.map((c) => [c[0], c] as const));
  if (name !== 'simple') g.tag(`construct:${name}`);
  return build(g, depth + 1);
}

/**
 * Mixes seed and index so each command is reproducible alone (`--seed S` and its position give the same text). The
 * seed is mixed on its own first: XORing the index into a seed barely changed (S and S+1 differ in the low bits)
 * gave the same commands in another order, so "fresh" neighbouring seeds re-ran the same set.
 */
export function commandSeed(seed: number, index: number): number {
  return mix32(mix32(seed ^ 0x9e3779b9) ^ index);
}

// The murmur3 finalizer: every input bit changes about half of the output bits.
function mix32(x: number): number {
  let h = Math.imul((x >>> 0) ^ (x >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

/** The `index`th command of the run seeded `seed`; about a quarter are benign (workspace paths only). */
export function generate(seed: number, index: number): Generated {
  const rng = new Rng(commandSeed(seed, index));
  const g = new Gen(rng, rng.chance(0.25));
  let text = node(g, 0);
  if (!g.benign && g.tags.has('path:variable') && !/^(F|R|A)=|; F=|cd link/.test(text) && rng.chance(0.7)) text = `${rng.pick(VARIABLE_SETUPS)}; ${text}`;
  if (g.benign) g.tag('corpus:benign');
  const tags = [...g.tags].sort();
  const shape = tags.filter((t) => t.startsWith('cmd:') || t.startsWith('construct:')).join(' ');
  return { text, tags, harmless: g.harmless, shape };
}
