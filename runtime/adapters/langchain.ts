import type { DynamicStructuredTool } from '@langchain/core/tools';
import type { Session } from '../session/session.js';
import { callTool, resultText } from './call-tool.js';
import { importFramework } from './import-framework.js';

/**
 * The session's tools as LangChain.js tools (`@langchain/core` 1.x `tool()` with the JSON Schema), for
 * `model.bindTools(tools)` and agents. Invoked with a tool call, a success gives a `ToolMessage` with the text, a
 * refusal or failure a `ToolMessage` with `status: 'error'` and the code in its text (the ToolResult as `artifact`),
 * so the loop goes on. The run's `signal` becomes the call's; LangChain rejects an aborted invocation itself. Without
 * `@langchain/core` the call throws FRAMEWORK_MISSING.
 * @example const tools = await langchainTools(session); const model = chatModel.bindTools(tools);
 */
export async function langchainTools(session: Session): Promise<DynamicStructuredTool[]> {
  const [{ tool }, { ToolMessage }] = await importFramework('langchainTools', '@langchain/core', () => Promise.all([import('@langchain/core/tools'), import('@langchain/core/messages')]));
  return (await session.listTools()).map((info) =>
    tool(
      async (input: unknown, config) => {
        const result = await callTool(session, info.name, (input ?? {}) as Record<string, unknown>, config.signal);
        const text = resultText(result);
        const callId = (config as { toolCall?: { id?: string } }).toolCall?.id;
        if (result.isError !== true || callId === undefined) return text;
        return new ToolMessage({ content: text, tool_call_id: callId, name: info.name, status: 'error', artifact: result });
      },
      { name: info.name, description: info.description, schema: info.inputSchema },
    ) as DynamicStructuredTool,
  );
}
