import type { FunctionTool, tool as agentsTool } from '@openai/agents';
import type { Session } from '../session/session.js';
import { callTool, resultText } from './call-tool.js';
import { importFramework } from './import-framework.js';
import { dropStrictNulls, toStrictSchema } from './openai-strict.js';

/**
 * The session's tools as OpenAI Agents SDK function tools (`tool()` of `@openai/agents`), for
 * `new Agent({ tools })`. The model gets a result's text; a refusal or failure starts with its code, so the run goes
 * on. The SDK's per-call `signal` becomes the call's. With `strict: true` the schemas are rewritten for strict mode as
 * in {@link openAITools} (a tool strict mode cannot express stays non-strict) and the nulls it makes the model send
 * for absent optional properties are removed before the call. Without `@openai/agents` the call throws FRAMEWORK_MISSING.
 * @example const agent = new Agent({ name: 'coder', tools: await openAIAgentsTools(session) });
 */
export async function openAIAgentsTools(session: Session, options: { strict?: boolean } = {}): Promise<FunctionTool[]> {
  const { tool } = await importFramework('openAIAgentsTools', '@openai/agents', () => import('@openai/agents'));
  return (await session.listTools()).map((info): FunctionTool => {
    const strictSchema = options.strict === true ? toStrictSchema(info.inputSchema) : undefined;
    const execute = async (input: unknown, _context: unknown, details?: { signal?: AbortSignal }): Promise<string> => {
      const raw = typeof input === 'string' ? (JSON.parse(input === '' ? '{}' : input) as unknown) : (input ?? {});
      const args = (strictSchema === undefined ? raw : dropStrictNulls(raw, info.inputSchema)) as Record<string, unknown>;
      return resultText(await callTool(session, info.name, args, details?.signal));
    };
    const strict = strictSchema !== undefined;
    // The SDK's parameter types describe its own schema literals; these are JSON Schemas from the session.
    const definition = { name: info.name, description: info.description, parameters: strictSchema ?? info.inputSchema, strict, execute } as unknown as Parameters<typeof agentsTool>[0];
    return tool(definition) as FunctionTool;
  });
}
