import fs from 'node:fs';
import path from 'node:path';
import { didYouMean } from '../../src/did-you-mean.js';
import { ToolwardenError } from '../../src/errors.js';
import { generateTokenKeyPair } from '../../runtime/capability/token-key-pair.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { HELP_OPTION, parseCommandArgs, usageError } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = { ...HELP_OPTION, out: { type: 'string' }, kid: { type: 'string' } } as const;

/** File names `keys generate` writes into `--out`. */
export const KEY_FILES = { privateKey: 'token-private.jwk.json', publicKeys: 'token-public.jwks.json' } as const;

/**
 * `toolwarden keys generate --out DIR [--kid ID]`: an Ed25519 token key pair, the private JWK readable by its owner
 * only (0600) and the public JWKS for serving nodes. Refuses to overwrite an existing key file.
 */
export async function runKeys(argv: readonly string[], io: CliIo): Promise<number> {
  const { values: flags, positionals } = parseCommandArgs(argv, OPTIONS, true);
  if (flags.help) {
    io.stdout(USAGE.keys);
    return EXIT.ok;
  }
  if (positionals.length !== 1 || positionals[0] !== 'generate') {
    const given = positionals.length === 0 ? 'none was given' : `got '${positionals.join(' ')}'${didYouMean(positionals[0] ?? '', ['generate'])}`;
    throw usageError(`the only subcommand is 'generate': ${given}`);
  }
  if (flags.out === undefined) throw usageError('--out DIR is required (where the two key files go)');
  const dir = path.resolve(flags.out);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pair = generateTokenKeyPair(flags.kid);
  const privateFile = path.join(dir, KEY_FILES.privateKey);
  const publicFile = path.join(dir, KEY_FILES.publicKeys);
  for (const file of [privateFile, publicFile]) {
    if (fs.existsSync(file)) throw new ToolwardenError('CONFLICT', `${file} exists: move it away first (keys are never overwritten)`);
  }
  // 'wx': created here or not at all, so a file raced in between is not overwritten either.
  fs.writeFileSync(privateFile, `${JSON.stringify(pair.privateKey, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  fs.writeFileSync(publicFile, `${JSON.stringify(pair.publicKeys, null, 2)}\n`, { mode: 0o644, flag: 'wx' });
  io.stdout(`key ${pair.keyId}\n  private (mint with it, keep it on the control plane): ${privateFile}\n  public (tokenPublicKeys of every serve node):        ${publicFile}\n`);
  return EXIT.ok;
}
