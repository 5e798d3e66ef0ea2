export { resolveShell, type ShellSpec, type ShellName, type CommandWrapper } from './shell.js';
export { execCommand, type ExecOptions, type ExecOutcome } from './exec-command.js';
export { ProcessRegistry, type ProcessRegistryOptions, type ProcessSnapshot, type ProcessStatus, type ProcessLogs, type ProcessGuard, type ProcessFinding } from './process-registry.js';
export { killAllProcessGroupsSync, countLiveProcessGroups } from './process-group.js';
export { probeActiveCodePage, parseChcpOutput, createHostCharsetProbe } from './code-page.js';
export { warmProcessLauncher } from './shared-launcher.js';
