import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { ToolwardenError } from '../../src/errors.js';
import type { DefinedTool } from '../../src/host-tools/define-tool.js';
import { isZodSchema } from './describe-tool.js';

const require = createRequire(import.meta.url);
const Ajv = require('ajv') as typeof import('ajv').default;
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Validates a host tool's arguments against its zod or JSON schema; INVALID_ARGS names each problem. */
export function validateHostToolArgs(tool: DefinedTool, args: unknown): unknown {
  if (isZodSchema(tool.input)) {
    const parsed = tool.input.safeParse(args);
    if (parsed.success) return parsed.data;
    const issues = (parsed.error as { issues?: { path: (string | number)[]; message: string }[] } | undefined)?.issues ?? [];
    const problems = issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${issue.message}`);
    throw new ToolwardenError('INVALID_ARGS', `invalid arguments for ${tool.name}: ${problems.join('; ') || 'schema refused them'}`);
  }
  let validate = compiled.get(tool.input);
  if (!validate) {
    validate = ajv.compile(tool.input);
    compiled.set(tool.input, validate);
  }
  if (validate(args)) return args;
  const problems = (validate.errors ?? []).map((e) => `${e.instancePath || 'arguments'}: ${e.message ?? 'invalid'}`);
  throw new ToolwardenError('INVALID_ARGS', `invalid arguments for ${tool.name}: ${problems.join('; ')}`);
}
