/** Parsed command line of `npm run bench`. */
export interface BenchArgs {
  quick: boolean;
  /** Scenario numbers to run, in order. */
  scenarios: number[];
  /** Directory for the JSON and SVG files. */
  outDir: string | undefined;
  /** Internal: set in the child process that runs one scenario; its result goes to this JSON file. */
  resultFile: string | undefined;
}

const USAGE = 'usage: npm run bench -- [--quick] [--scenario N[,M...]] [--out DIR]';

/**
 * Parses `--quick`, `--scenario N[,M]` (or `--scenario=N`) and `--out DIR`; throws with the usage line on anything else.
 * @example parseArgs(['--scenario', '2,3'], [1, 2, 3]).scenarios // [2, 3]
 */
export function parseArgs(argv: readonly string[], known: readonly number[]): BenchArgs {
  const parsed: BenchArgs = { quick: false, scenarios: [...known], outDir: undefined, resultFile: undefined };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag = '', inline] = splitFlag(argv[i] ?? '');
    const value = (): string => {
      const next = inline ?? argv[(i += 1)];
      if (next === undefined || next === '') throw new Error(`${flag} needs a value\n${USAGE}`);
      return next;
    };
    if (flag === '--quick') parsed.quick = true;
    else if (flag === '--scenario') parsed.scenarios = parseScenarioList(value(), known);
    else if (flag === '--out') parsed.outDir = value();
    else if (flag === '--result-file') parsed.resultFile = value();
    else if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    else throw new Error(`unknown argument '${flag}'\n${USAGE}`);
  }
  return parsed;
}

function splitFlag(arg: string): [string, string | undefined] {
  const eq = arg.indexOf('=');
  return eq === -1 ? [arg, undefined] : [arg.slice(0, eq), arg.slice(eq + 1)];
}

function parseScenarioList(list: string, known: readonly number[]): number[] {
  const ids = list.split(',').map((item) => Number(item.trim()));
  const bad = ids.filter((id) => !known.includes(id));
  if (bad.length > 0 || ids.length === 0) throw new Error(`--scenario takes numbers among ${known.join(', ')}; got '${list}'\n${USAGE}`);
  return [...new Set(ids)];
}
