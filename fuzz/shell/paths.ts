import type { Rng } from './prng.js';

/** How a path word was built: the generator's coverage counts these, and only `inside` shapes are harmless. */
export type PathShape = 'inside' | 'readroot' | 'outside' | 'twin' | 'link' | 'glob' | 'variable' | 'substitution' | 'quoted' | 'tilde' | 'blocked';

/** A path word with its shape. `@B@` stands for the fixture's base directory. */
export interface PathWord {
  text: string;
  shape: PathShape;
}

const w = (shape: PathShape, ...texts: string[]): PathWord[] => texts.map((text) => ({ text, shape }));

/** Words for files to read, by shape. */
export const READ_PATHS: Readonly<Record<PathShape, readonly PathWord[]>> = {
  inside: w('inside', 'a.txt', 'b.txt', 'notes.md', 'src/x.ts', './src/deep/y.ts', 'sub/inner.txt', 'list.txt', 'data.json', '"$PWD/a.txt"', '@B@/ws/b.txt', 'src-link/x.ts', 'nested/file.txt', './a.txt', 'src/../a.txt', 'src', 'sub'),
  readroot: w('readroot', '../ro/ref.txt', '@B@/ro/ref.txt', '../ws/../ro/ref.txt'),
  outside: w('outside', '@B@/outside/secret.txt', '../outside/secret.txt', '@B@/ws/../outside/secret.txt', '../outside', '@B@/outside/dir/inner.txt', '/etc/passwd', '..', '../..'),
  twin: w('twin', '../ws-evil/secret.txt', '@B@/ws-evil/secret.txt', '@B@/ws-evil', '../ws/../ws-evil/secret.txt'),
  link: w('link', 'link-out-file', 'link-out-dir/secret.txt', 'link-out-dir', 'rel-out/secret.txt', 'self/../outside/secret.txt', 'self/self/../../outside/secret.txt', 'src-link/../../outside/secret.txt', 'src/../link-out-file', 'self/../ws-evil/secret.txt', './link-out-dir/dir/inner.txt', 'self/..', 'self/../ro/ref.txt'),
  glob: w('glob', '*', '*.txt', 'link-*', 'l*-out-*', '?ink-out-file', 'link-out-d*/*', 'self/../*/secret.txt', '../*/secret.txt', '*/secret.txt', 'src/*', '.*', '**/secret.txt', '[l]ink-out-file', 'rel-*/*', '../ws-*/*', 's*/../../outside/*'),
  variable: w('variable', '"$F"', '$F', '"${F}"', '${F:-../outside/secret.txt}', '"${G:=link-out-file}"', '${F%/}', '"${HOME}/secret.txt"', '$OLDPWD/secret.txt', '"${!R}"', '${F@P}', '"${A[0]}"', '"$(pwd)/../outside/secret.txt"'),
  substitution: w('substitution', '$(echo ../outside/secret.txt)', '`printf %s link-out-file`', '$(cat pathfile.txt)', '"$(printf %s ../ws-evil/secret.txt)"', '$(ls -d link-out-*)', '<(cat link-out-file)', '$(echo a.txt)', '"$(head -1 pathfile.txt)"'),
  quoted: w('quoted', "'link-out-file'", '"link-out-file"', 'link\\-out-file', "$'link-out-file'", 'l"ink-out"-file', "$'\\x6cink-out-file'", "'../outside/secret.txt'", '"a.txt"', "$'a.txt'"),
  tilde: w('tilde', '~/secret.txt', '~', '~+/link-out-file', '~-/secret.txt', '~root/x', '$HOME/secret.txt', '~/', '~+/a.txt'),
  blocked: w('blocked', '.git/hooks/pre-commit', 'nested/.git/config', '.bashrc', '.git/config'),
};

/** Words for files to write, by shape. */
export const WRITE_PATHS: Readonly<Record<PathShape, readonly PathWord[]>> = {
  inside: w('inside', 'out.txt', 'src/new.txt', 'sub/w.txt', '"$PWD/out2.txt"', './out3.txt', '@B@/ws/out4.txt', 'src-link/w.ts'),
  readroot: w('readroot', '../ro/pwned', '@B@/ro/ref.txt'),
  outside: w('outside', '@B@/outside/pwned', '../outside/pwned', '/tmp/pwned', '@B@/ws/../outside/pwned', '../pwned'),
  twin: w('twin', '../ws-evil/pwned', '@B@/ws-evil/secret.txt'),
  link: w('link', 'link-out-dir/pwned', 'rel-out/pwned', 'self/../outside/pwned', 'link-out-file', 'src-link/../../outside/pwned', './link-out-dir/dir/pwned'),
  glob: w('glob', 'link-out-d*/pwned', 'l*-out-file', 'rel-o?t/pwned', '*/pwned'),
  variable: w('variable', '"$F"', '${F:-../outside/pwned}', '"$HOME/pwned"', '"${!R}"', '"${A[0]}"'),
  substitution: w('substitution', '$(echo ../outside/pwned)', '`printf %s link-out-file`', '$(cat pathfile.txt)'),
  quoted: w('quoted', "'link-out-file'", "$'link-out-dir/pwned'", 'link\\-out-dir/pwned', '"out5.txt"'),
  tilde: w('tilde', '~/pwned', '~+/out6.txt', '~/.bashrc'),
  blocked: w('blocked', '.git/hooks/pre-commit', 'nested/.git/config', '.bashrc', 'sub/.envrc', '.vscode/tasks.json', 'nested/.git/hooks/post-checkout'),
};

const READ_WEIGHTS: readonly (readonly [number, PathShape])[] = [
  [40, 'inside'], [4, 'readroot'], [7, 'outside'], [5, 'twin'], [14, 'link'], [10, 'glob'], [7, 'variable'], [5, 'substitution'], [4, 'quoted'], [3, 'tilde'], [1, 'blocked'],
];
const WRITE_WEIGHTS: readonly (readonly [number, PathShape])[] = [
  [40, 'inside'], [2, 'readroot'], [7, 'outside'], [4, 'twin'], [14, 'link'], [6, 'glob'], [7, 'variable'], [4, 'substitution'], [4, 'quoted'], [3, 'tilde'], [7, 'blocked'],
];

/** A path word to read, weighted towards the workspace (a harmless corpus is needed to count over-asking). */
export function pickRead(rng: Rng, harmlessOnly = false): PathWord {
  const shape = harmlessOnly ? 'inside' : rng.weighted(READ_WEIGHTS);
  return rng.pick(READ_PATHS[shape]);
}

/** A path word to write. */
export function pickWrite(rng: Rng, harmlessOnly = false): PathWord {
  const shape = harmlessOnly ? 'inside' : rng.weighted(WRITE_WEIGHTS);
  return rng.pick(WRITE_PATHS[shape]);
}

/** Values the `variable` shapes refer to: assigned before the command so the variable holds something hostile. */
export const VARIABLE_SETUPS: readonly string[] = [
  'F=../outside/secret.txt', 'F=link-out-file', 'F=a.txt', 'F=@B@/ws-evil/secret.txt', 'F=self/../outside/secret.txt',
  'R=F; F=link-out-file', 'A=(link-out-file a.txt)', 'F=\'$(cat pathfile.txt)\'', 'cd link-out-dir; cd "$OLDPWD"', 'F=src/x.ts',
];
