import fs from 'node:fs';
import path from 'node:path';
import { ToolwardenError } from '../../src/errors.js';
import { parseServeConfig, type ServeConfig } from '../../src/serve/serve-config.js';

/**
 * Reads and validates a config file (JSON); relative paths in it resolve against the file's directory.
 * @throws ToolwardenError INVALID_OPTIONS naming the file and, for a bad value, the field.
 */
export function loadServeConfig(file: string): ServeConfig {
  const absolute = path.resolve(file);
  let text: string;
  try {
    text = fs.readFileSync(absolute, 'utf8');
  } catch (error) {
    throw new ToolwardenError('INVALID_OPTIONS', `config file ${absolute} cannot be read: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ToolwardenError('INVALID_OPTIONS', `config file ${absolute} is not valid JSON: ${(error as Error).message}`);
  }
  try {
    return parseServeConfig(json, path.dirname(absolute));
  } catch (error) {
    if (error instanceof ToolwardenError) throw new ToolwardenError(error.code, `config file ${absolute}: ${error.message}`);
    throw error;
  }
}
