import { ToolwardenError } from '../errors.js';
import { BUILTIN_SCHEMAS, type BuiltinArgs, type BuiltinToolName } from './builtin-schemas.js';

/** Parses a built-in tool's arguments, throwing INVALID_ARGS that names each bad argument and why. */
export function validateBuiltinArgs<N extends BuiltinToolName>(name: N, args: unknown): BuiltinArgs<N> {
  const parsed = BUILTIN_SCHEMAS[name].safeParse(args ?? {});
  if (parsed.success) return parsed.data as BuiltinArgs<N>;
  const problems = parsed.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'arguments';
    return `${where}: ${issue.message}`;
  });
  throw new ToolwardenError('INVALID_ARGS', `invalid arguments for ${name}: ${problems.join('; ')}`);
}
