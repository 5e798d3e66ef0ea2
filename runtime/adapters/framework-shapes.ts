import type { Session } from '../session/session.js';

/**
 * A tool of {@link aiSdkTools} as far as it can be described without the `ai` package. `toolwarden/adapters/ai-sdk`
 * gives the same tools as the SDK's own `ToolSet`, which `generateText({ tools })` takes.
 */
export interface AiSdkToolShape {
  title?: string | undefined;
  description?: string | undefined;
  /** The SDK's schema object around the tool's JSON Schema. */
  inputSchema: unknown;
}

/**
 * A tool of {@link langchainTools} as far as it can be described without `@langchain/core`; `bindTools` takes it
 * as it is. `toolwarden/adapters/langchain` gives the same tools as `DynamicStructuredTool`s.
 */
export interface LangChainToolShape {
  name: string;
  description: string;
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

/**
 * A tool of {@link openAIAgentsTools} as far as it can be described without `@openai/agents`.
 * `toolwarden/adapters/openai-agents` gives the same tools as the SDK's `FunctionTool`s, which `new Agent({ tools })` takes.
 */
export interface OpenAIAgentsToolShape {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
  invoke(runContext: unknown, input: string, details?: unknown): Promise<unknown>;
}

/**
 * The session's tools for the Vercel AI SDK; loads `toolwarden/adapters/ai-sdk` (and `ai`) when called. See that
 * entry point's `aiSdkTools`, whose result types are the SDK's own.
 */
export async function aiSdkTools(session: Session): Promise<Record<string, AiSdkToolShape>> {
  return (await import('./ai-sdk.js')).aiSdkTools(session);
}

/**
 * The session's tools for LangChain.js; loads `toolwarden/adapters/langchain` (and `@langchain/core`) when called.
 * See that entry point's `langchainTools`, whose result types are LangChain's own.
 */
export async function langchainTools(session: Session): Promise<LangChainToolShape[]> {
  return (await import('./langchain.js')).langchainTools(session);
}

/**
 * The session's tools for the OpenAI Agents SDK; loads `toolwarden/adapters/openai-agents` (and `@openai/agents`)
 * when called. See that entry point's `openAIAgentsTools`, whose result types are the SDK's own.
 */
export async function openAIAgentsTools(session: Session, options: { strict?: boolean } = {}): Promise<OpenAIAgentsToolShape[]> {
  return (await import('./openai-agents.js')).openAIAgentsTools(session, options);
}
