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

const COMMANDS: Readonly<Record<string, (argv: readonly string[], io: CliIo) => Promise<number>>> = {
  demo: runDemo,
  doctor: runDoctor,
  explain: runExplain,
  keys: runKeys,
  mint: runMint,
  serve: runServe,
};

/**
 * Runs `toolwarden <command> ...`: usage errors print the usage on stderr and return 2, other failures print
 * `toolwarden: CODE: message` and return 1. `--version` / `-v` prints package.json's version.
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
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.stderr(`toolwarden: unknown command '${name}'\n\n${USAGE.main}`);
    return EXIT.usage;
  }
  try {
    return await command(rest, io);
  } catch (error) {
    const { code, message } = toPlainError(error);
    if (code === 'INVALID_ARGS') {
      io.stderr(`${message}\n\n${USAGE[name as keyof typeof COMMANDS & keyof typeof USAGE]}`);
      return EXIT.usage;
    }
    io.stderr(`toolwarden: ${code}: ${message}\n`);
    return EXIT.failed;
  }
}
