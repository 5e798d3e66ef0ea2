import fs from 'node:fs';
import { ToolwardenError } from '../../src/errors.js';
import { createRuntime } from '../../runtime/runtime.js';
import { loadServeConfig } from '../../runtime/serve/load-serve-config.js';
import { runtimeOptionsFrom, userSessionOptions } from '../../runtime/serve/runtime-from-config.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { HELP_OPTION, parseCommandArgs, toolList, usageError } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = {
  ...HELP_OPTION,
  config: { type: 'string' },
  'private-key': { type: 'string' },
  user: { type: 'string' },
  tools: { type: 'string' },
  workspace: { type: 'string' },
  ttl: { type: 'string' },
} as const;

/**
 * `toolwarden mint --config FILE --private-key FILE --user U [--tools a,b] [--workspace DIR] [--ttl S]`: prints a
 * capability token for `U`, within U's tenant and carrying its session rules, signed with the Ed25519 private key.
 */
export async function runMint(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs(argv, OPTIONS).values;
  if (flags.help) {
    io.stdout(USAGE.mint);
    return EXIT.ok;
  }
  for (const flag of ['config', 'private-key', 'user'] as const) {
    if (flags[flag] === undefined) throw usageError(`--${flag} is required`);
  }
  const ttl = flags.ttl === undefined ? undefined : Number(flags.ttl);
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl <= 0)) throw usageError(`--ttl must be a positive whole number of seconds, got '${flags.ttl}'`);
  const tools = toolList(flags.tools);
  const config = loadServeConfig(flags.config as string);
  let privateKey: unknown;
  try {
    privateKey = JSON.parse(fs.readFileSync(flags['private-key'] as string, 'utf8'));
  } catch (error) {
    throw new ToolwardenError('INVALID_OPTIONS', `--private-key ${flags['private-key']} is not a readable JWK file: ${(error as Error).message}`);
  }
  const { tokenKeys: _verifyOnly, ...options } = runtimeOptionsFrom(config, { idleWorkers: 0 });
  const rt = await createRuntime({ ...options, tokenKeys: { privateKey: privateKey as never } });
  try {
    const token = await rt.mintToken({
      ...userSessionOptions(config, flags.user as string),
      ...(tools === undefined ? {} : { tools }),
      ...(flags.workspace === undefined ? {} : { workspaceRoot: flags.workspace }),
      ...(ttl === undefined ? {} : { ttlSeconds: ttl }),
    });
    io.stdout(`${token}\n`);
    return EXIT.ok;
  } finally {
    await rt.close();
  }
}
