import type { JSONSchema7, ToolSet } from 'ai';
import type { ToolResult } from '../../src/tool-result.js';
import type { Session } from '../session/session.js';
import { callTool, resultText } from './call-tool.js';
import { importFramework } from './import-framework.js';

/**
 * The session's tools as a Vercel AI SDK 6 tool set, for `generateText`/`streamText({ tools })`. Each is a
 * `dynamicTool` with the tool's JSON Schema; `execute` calls the session with the SDK's `abortSignal` and returns
 * the ToolResult. A failure (a refusal, a missing file) reaches the model as an `error-text` output, so the loop goes
 * on; a success as its text. Needs the `ai` package (6.x): without it the call throws FRAMEWORK_MISSING.
 * @example const result = await generateText({ model, tools: await aiSdkTools(session), stopWhen: stepCountIs(5), prompt });
 */
export async function aiSdkTools(session: Session): Promise<ToolSet> {
  const { dynamicTool, jsonSchema } = await importFramework('aiSdkTools', 'ai', () => import('ai'));
  const tools: ToolSet = {};
  for (const info of await session.listTools()) {
    tools[info.name] = dynamicTool({
      ...(info.title === undefined ? {} : { title: info.title }),
      description: info.description,
      inputSchema: jsonSchema(info.inputSchema as JSONSchema7),
      execute: (input, { abortSignal }) => callTool(session, info.name, (input ?? {}) as Record<string, unknown>, abortSignal),
      toModelOutput: ({ output }) => {
        const result = output as ToolResult;
        return result.isError === true ? { type: 'error-text', value: resultText(result) } : { type: 'text', value: resultText(result) };
      },
    });
  }
  return tools;
}
