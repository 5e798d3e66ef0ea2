import { ToolwardenError } from '../../src/errors.js';

/** The bash tool's actions. */
export type BashAction = 'exec' | 'start' | 'status' | 'logs' | 'write' | 'stop' | 'list';

/** Arguments of one bash call, checked for its action. */
export type BashRequest =
  | { action: 'exec'; command: string; cwd?: string; timeoutMs?: number }
  | { action: 'start'; command: string; cwd?: string }
  | { action: 'status' | 'stop'; processId: string }
  | { action: 'logs'; processId: string; offset?: number; limit?: number }
  | { action: 'write'; processId: string; input: string }
  | { action: 'list' };

/** Checks bash arguments per action (they arrive from the worker, so nothing is assumed); INVALID_ARGS names the field. */
export function parseBashArgs(args: Record<string, unknown>): BashRequest {
  const action = typeof args['action'] === 'string' ? args['action'] : args['action'] === undefined ? 'exec' : String(args['action']);
  const str = (name: string): string => {
    const value = args[name];
    if (typeof value !== 'string' || value.length === 0) throw new ToolwardenError('INVALID_ARGS', `bash ${String(action)}: '${name}' must be a non-empty string`);
    return value;
  };
  const optStr = (name: string): string | undefined => (args[name] === undefined ? undefined : str(name));
  const optInt = (name: string, min: number): number | undefined => {
    const value = args[name];
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min) throw new ToolwardenError('INVALID_ARGS', `bash ${String(action)}: '${name}' must be an integer >= ${min}`);
    return value;
  };
  const cwdPart = (): { cwd?: string } => {
    const cwd = optStr('cwd');
    return cwd === undefined ? {} : { cwd };
  };
  switch (action) {
    case 'exec': {
      const timeoutMs = optInt('timeoutMs', 1);
      return { action, command: str('command'), ...cwdPart(), ...(timeoutMs === undefined ? {} : { timeoutMs }) };
    }
    case 'start':
      return { action, command: str('command'), ...cwdPart() };
    case 'status':
    case 'stop':
      return { action, processId: str('processId') };
    case 'logs': {
      const offset = optInt('offset', 0);
      const limit = optInt('limit', 1);
      return { action, processId: str('processId'), ...(offset === undefined ? {} : { offset }), ...(limit === undefined ? {} : { limit }) };
    }
    case 'write': {
      const input = args['input'];
      if (typeof input !== 'string') throw new ToolwardenError('INVALID_ARGS', `bash write: 'input' must be a string`);
      return { action, processId: str('processId'), input };
    }
    case 'list':
      return { action };
    default:
      throw new ToolwardenError('INVALID_ARGS', `bash: unknown action '${String(action)}'; use exec, start, status, logs, write, stop or list`);
  }
}
