/**
 * Adapters from a toolwarden session to agent frameworks, all in one entry point. Each framework also has its own
 * (`toolwarden/adapters/ai-sdk`, `/openai`, `/anthropic`, `/langchain`, `/openai-agents`, `/claude-agent`), whose
 * types need that framework alone. The types here need none: the adapters that return a framework's own objects are
 * declared by the shape toolwarden guarantees, and load their module and framework only when called. Import those
 * from their own entry point to get the framework's types.
 * @packageDocumentation
 */
export { anthropicTools, runAnthropicToolUse, type AnthropicTool, type AnthropicToolResultBlock, type AnthropicToolUseBlock } from './anthropic.js';
export { callTool, resultText } from './call-tool.js';
export { claudeAgentMcpServer, type ClaudeAgentMcpServerConfig } from './claude-agent.js';
export { aiSdkTools, langchainTools, openAIAgentsTools, type AiSdkToolShape, type LangChainToolShape, type OpenAIAgentsToolShape } from './framework-shapes.js';
export {
  dropStrictNulls,
  openAITools,
  runOpenAIToolCall,
  toStrictSchema,
  type OpenAIChatTool,
  type OpenAIChatToolCall,
  type OpenAIFunctionCall,
  type OpenAIFunctionCallOutput,
  type OpenAIResponsesTool,
  type OpenAIToolMessage,
  type OpenAIToolsOptions,
} from './openai.js';
