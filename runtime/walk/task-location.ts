import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ToolwardenError } from '../../src/errors.js';

/**
 * The URL of the walk pool's task file. Piscina threads need real JavaScript: compiled, it sits next to this
 * module's own compiled tree (`dist/workers/walk/task.js`); run from TypeScript source (tests), the compiled
 * copy under `<repo>/dist` is used instead.
 * @throws ToolwardenError INTERNAL when neither exists (the project was not built: run `npm run build`).
 */
export function locateWalkTask(): URL {
  const sibling = new URL('../../workers/walk/task.js', import.meta.url);
  if (existsSync(fileURLToPath(sibling))) return sibling;
  const compiled = new URL('../../dist/workers/walk/task.js', import.meta.url);
  if (existsSync(fileURLToPath(compiled))) return compiled;
  throw new ToolwardenError('INTERNAL', `walk task file not found at '${fileURLToPath(sibling)}' or '${fileURLToPath(compiled)}'; run 'npm run build' first`);
}
