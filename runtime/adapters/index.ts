/**
 * Adapters from a toolwarden session to agent frameworks. Each framework package is loaded only when its adapter is
 * called, so install only the ones you use.
 * @packageDocumentation
 */
export { aiSdkTools } from './ai-sdk.js';
export { anthropicTools, runAnthropicToolUse, type AnthropicTool, type AnthropicToolResultBlock, type AnthropicToolUseBlock } from './anthropic.js';
export { callTool, resultText } from './call-tool.js';
export { claudeAgentMcpServer } from './claude-agent-sdk.js';
export { langchainTools } from './langchain.js';
export { openAIAgentsTools } from './openai-agents.js';
export { toStrictSchema, dropStrictNulls } from './openai-strict.js';
export {
  openAITools,
  runOpenAIToolCall,
  type OpenAIChatTool,
  type OpenAIChatToolCall,
  type OpenAIFunctionCall,
  type OpenAIFunctionCallOutput,
  type OpenAIResponsesTool,
  type OpenAIToolMessage,
  type OpenAIToolsOptions,
} from './openai.js';
