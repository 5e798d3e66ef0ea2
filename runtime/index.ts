/**
 * toolwarden: a permission-scoped worker runtime for AI-agent tools.
 * @packageDocumentation
 */
export { createRuntime, Runtime, type RuntimeOptions, type RuntimeStats, type SessionInspection, type TokenInfo } from './runtime.js';
export { generateTokenKeyPair, type TokenKeyPair } from './capability/token-key-pair.js';
export type { TokenKeysOption, Ed25519KeyInput } from '../src/capability/token-keys.js';
export { Session, type CallOptions } from './session/session.js';
export type { SessionOptions } from './session/session-options.js';
export { ToolwardenError, ERROR_CODES, type ErrorCode } from '../src/errors.js';
export type { ToolResult, TextContent } from '../src/tool-result.js';
export type { ToolInfo } from '../src/tools/tool-info.js';
export type { Limits } from '../src/limits.js';
export { DEFAULT_LIMITS } from '../src/limits.js';
export type { Capability, SandboxMode, PermissionSpec } from '../src/capability/capability.js';
export type { NarrowRequest } from '../src/capability/narrow.js';
export { effectiveBlocklist } from '../src/capability/effective-blocklist.js';
export { DEFAULT_BLOCKLIST, type BlockedEntry } from '../src/path-guard/blocklist.js';
export type { BlockedPathsOption } from '../src/path-guard/blocklist-option.js';
export { defineTool } from '../src/host-tools/define-tool.js';
export type { DefinedTool, ToolContext, ToolFs, ExecOptions, ExecResult, ToolInputSchema, ToolReturn, ToolSessionInfo } from '../src/host-tools/define-tool.js';
export { explain, readOnlyTools, validatePermissionSpec } from '../src/policy/index.js';
export type { Decision, ToolRule, PolicySubject, RuleVerdict, ApprovalOption, Explanation } from '../src/policy/index.js';
export type { ApprovalRequest, Approver } from './policy/policy-gate.js';
export type { AuditEvent } from '../src/audit/index.js';
export type { AuditOption, AuditTarget } from './audit/index.js';
export type { McpServerConfig, McpServersOption } from '../src/mcp/index.js';
export type { TenantConfig, TenantsOption, TenantContext } from '../src/tenants/index.js';
export { resolveShellCharset } from '../src/charset.js';
export type { Admission } from './calls/admission.js';
export { createMcpServer, installSessionTools } from './serve/session-mcp-server.js';
export { createMcpHttpHandler, type McpHttpHandler, type McpHttpHandlerOptions } from './serve/http/mcp-http-handler.js';
export type { ToolAnnotations } from '../src/tools/tool-presentation.js';
