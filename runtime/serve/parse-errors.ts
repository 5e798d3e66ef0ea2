import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * Answers lines a client sent that are not JSON (-32700, Parse error) or not a JSON-RPC message (-32600, Invalid
 * Request) with an error of id `null`, as JSON-RPC 2.0 requires; the SDK's stdio transport only reports them to
 * `onerror`. Call after `server.connect(transport)`, which sets the `onerror` this one chains to.
 */
export function answerUnparsableMessages(transport: Transport): void {
  const previous = transport.onerror;
  transport.onerror = (error: Error) => {
    const code = error instanceof SyntaxError ? -32700 : isSchemaError(error) ? -32600 : undefined;
    if (code !== undefined) {
      const message = code === -32700 ? `Parse error: ${error.message}` : 'Invalid Request: not a JSON-RPC 2.0 message';
      const reply = { jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage;
      void transport.send(reply).catch(() => undefined);
    }
    previous?.(error);
  };
}

/** A schema validation failure (zod's), which the SDK throws for a line that is JSON but not JSON-RPC. */
function isSchemaError(error: Error): boolean {
  return error.name === 'ZodError' || Array.isArray((error as { issues?: unknown }).issues);
}
