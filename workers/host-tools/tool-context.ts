import { ToolwardenError } from '../../src/errors.js';
import type { ExecResult, ToolContext, ToolSessionInfo } from '../../src/host-tools/define-tool.js';
import type { BrokerApi } from '../../src/protocol.js';
import type { ToolResult } from '../../src/tool-result.js';
import { applyEdit } from '../../src/text/edit.js';
import { unwrap } from '../broker-client.js';

/**
 * Builds the `ctx` a host tool receives. Every method is a broker request: the main thread resolves and checks
 * it against the session's capability, exactly as for the built-in tools.
 */
export function createToolContext(broker: BrokerApi, session: ToolSessionInfo, signal: AbortSignal): ToolContext {
  const readText = async (path: string): Promise<string> => {
    const file = await unwrap(broker.readFileStrict(path));
    if (file.binary) throw new ToolwardenError('UNSUPPORTED_FILE', `${path} is a binary file`);
    return file.text;
  };
  return Object.freeze({
    fs: Object.freeze({
      readFile: readText,
      writeFile: async (path: string, content: string) => {
        await unwrap(broker.writeFile(path, content));
      },
      editFile: async (path: string, oldString: string, newString: string, options?: { replaceAll?: boolean }) => {
        const edited = applyEdit(await readText(path), oldString, newString, options?.replaceAll ?? false, path);
        await unwrap(broker.writeFile(path, edited.content));
        return { replacements: edited.replacements };
      },
      list: async (path?: string) => (await unwrap(broker.listDir(path))).entries,
      stat: async (path: string) => {
        const stat = await unwrap(broker.stat(path));
        return stat ? { kind: stat.kind, size: stat.size, mtimeMs: stat.mtimeMs } : undefined;
      },
      glob: async (pattern: string, options?: { path?: string }) => (await unwrap(broker.glob(pattern, options?.path))).paths,
      grep: async (pattern: string, options?: { path?: string; glob?: string; ignoreCase?: boolean; maxResults?: number }) =>
        (await unwrap(broker.grep({ pattern, ...options }))).matches,
    }),
    exec: async (command: string, options?: { cwd?: string; timeoutMs?: number }): Promise<ExecResult> => {
      const result = throwIfError(await broker.bash({ action: 'exec', command, ...options }));
      return result.structuredContent as unknown as ExecResult;
    },
    fetch: async (url: string, init?: Record<string, unknown>) => throwIfError(await broker.webFetch({ url, ...init })),
    mcp: Object.freeze({ call: async (tool: string, args: Record<string, unknown> = {}) => throwIfError(await broker.mcpCall(tool, args)) }),
    signal,
    log: (message: string, data?: unknown) => {
      void broker.log('info', String(message), data);
    },
    session: Object.freeze({ ...session }),
  });
}

function throwIfError(result: ToolResult): ToolResult {
  if (result.isError) {
    const text = result.content.map((c) => c.text).join('\n');
    throw new ToolwardenError(result.code ?? 'INTERNAL', text);
  }
  return result;
}
