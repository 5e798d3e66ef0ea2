import { didYouMean } from '../src/did-you-mean.js';
import { toPlainError } from '../src/errors.js';
import { PACKAGE_INFO } from '../src/package-info.js';
import { EXIT, type CliIo } from './cli-io.js';
import { runDemo } from './commands/demo.js';
import { runDoctor } from './commands/doctor.js';
import { runExplain } from './commands/explain.js';
import { runKeys } from './commands/keys.js';
import { runMint } from './commands/mint.js';
import { runServe } from './commands/serve.js';
import { USAGE } from './usage.js';

const COMMANDS = {
  demo: runDemo,
  doctor: runDoctor,
  explain: runExplain,
  keys: runKeys,
  mint: runMint,
  serve: runServe,
} as const satisfies Readonly<Record<string, (argv: readonly string[], io: CliIo) => Promise<number>>>;

type Command = keyof typeof COMMANDS;

/**
 * Runs `toolwarden <command> ...`. Every error of a command is printed as `toolwarden <command>: ...`: a usage error
 * (INVALID_ARGS) with the command's usage below it, exit 2; any other failure as `toolwarden <command>: CODE: message`,
 * exit 1. `--version` / `-v` prints package.json's version.
 * @example process.exitCode = await runCli(process.argv.slice(2), PROCESS_IO)
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? io.stderr : io.stdout)(USAGE.main);
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout(`${PACKAGE_INFO.version}\n`);
    return EXIT.ok;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    io.stderr(`toolwarden: unknown command '${name}'${didYouMean(name, Object.keys(COMMANDS))}\n\n${USAGE.main}`);
    return EXIT.usage;
  }
  const command = name as Command;
  try {
    return await COMMANDS[command](rest, io);
  } catch (error) {
    const { code, message } = toPlainError(error);
    if (code === 'INVALID_ARGS') {
      io.stderr(`toolwarden ${command}: ${message}\n\n${USAGE[command]}`);
      return EXIT.usage;
    }
    io.stderr(`toolwarden ${command}: ${code}: ${message}\n`);
    return EXIT.failed;
  }
}
