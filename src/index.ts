/**
 * toolwarden: a permission-scoped worker runtime for AI-agent tools.
 * @packageDocumentation
 */
export { createRuntime, Runtime, type RuntimeOptions } from '../runtime/runtime.js';
export { Session } from '../runtime/session.js';
export type { SessionOptions } from '../runtime/session-options.js';
export { ToolwardenError, ERROR_CODES, type ErrorCode } from './errors.js';
export type { ToolResult, TextContent } from './tool-result.js';
export type { ToolInfo } from './tools/tool-info.js';
export type { Limits } from './limits.js';
export { DEFAULT_LIMITS } from './limits.js';
export type { Capability, SandboxMode, PermissionSpec } from './capability/capability.js';
export type { NarrowRequest } from './capability/narrow.js';
export { effectiveBlocklist } from './capability/effective-blocklist.js';
export { DEFAULT_BLOCKLIST, type BlockedEntry } from './path-guard/blocklist.js';
export type { BlockedPathsOption } from './path-guard/blocklist-option.js';
export { defineTool } from './host-tools/define-tool.js';
export type { DefinedTool, ToolContext, ToolFs, ExecOptions, ExecResult, ToolInputSchema, ToolReturn, ToolSessionInfo } from './host-tools/define-tool.js';
export { explain, readOnlyTools, validatePermissionSpec } from './policy/index.js';
export type { Decision, ToolRule, PolicySubject, RuleVerdict, ApprovalOption, Explanation } from './policy/index.js';
export type { ApprovalRequest, Approver } from '../runtime/policy/policy-gate.js';
export type { AuditEvent } from './audit/index.js';
export type { AuditOption } from '../runtime/audit/index.js';
export type { McpServerConfig, McpServersOption } from './mcp/index.js';
export type { TenantConfig, TenantsOption, TenantContext } from './tenants/index.js';
export { resolveShellCharset } from './charset.js';
export type { Admission } from '../runtime/session.js';
