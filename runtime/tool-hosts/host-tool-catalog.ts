import { ToolwardenError } from '../../src/errors.js';
import type { Capability } from '../../src/capability/capability.js';
import type { KnownTools } from '../../src/policy/index.js';
import { BUILTIN_TOOL_NAMES, isBuiltinTool } from '../../src/tools/builtin-schemas.js';
import type { ToolInfo } from '../../src/tools/tool-info.js';
import { DEFAULT_LIMITS } from '../../src/limits.js';
import { probeToolModules } from './probe-tool-modules.js';
import type { ToolProcess } from '../isolation/start-tool-process.js';

/** Starts a tool process for probing modules with `isolation: 'process'`. */
export type ProbeProcessStarter = (moduleUrls: readonly string[], heapMb: number) => Promise<ToolProcess>;

/**
 * The host tools each module set defines, probed once per runtime (in a worker, or a tool process for
 * `isolation: 'process'`) and shared by every session loading that set. A module that fails to load fails the open
 * that asked for it, and is probed again next time.
 */
export class HostToolCatalog {
  readonly #sets = new Map<string, Promise<Map<string, ToolInfo>>>();
  readonly #loadTimeoutMs: number;
  readonly #startProcess: ProbeProcessStarter;
  readonly #mcpServerIds: readonly string[];

  constructor(options: { loadTimeoutMs: number; startProcess: ProbeProcessStarter; mcpServerIds: readonly string[] }) {
    this.#loadTimeoutMs = options.loadTimeoutMs;
    this.#startProcess = options.startProcess;
    this.#mcpServerIds = options.mcpServerIds;
  }

  /** Listings of the host tools a module set defines, by name; a name may not shadow a built-in tool (INVALID_OPTIONS). */
  tools(moduleUrls: readonly string[], isolation: Capability['isolation']): Promise<Map<string, ToolInfo>> {
    const key = [isolation, ...moduleUrls].join('\n');
    let pending = this.#sets.get(key);
    if (!pending) {
      pending = moduleUrls.length === 0 ? Promise.resolve(new Map()) : this.#probe(moduleUrls, isolation);
      pending.catch(() => this.#sets.delete(key));
      this.#sets.set(key, pending);
    }
    return pending;
  }

  /** The tools rules may name with these host tools: built-in, the host tools, and tools of the configured MCP servers. */
  known(hostTools: ReadonlyMap<string, ToolInfo>): KnownTools {
    return { names: [...BUILTIN_TOOL_NAMES, ...hostTools.keys()], mcpServerIds: this.#mcpServerIds };
  }

  /** Throws INVALID_OPTIONS for a tool of a capability that is neither built in nor defined by its modules. */
  async assertKnown(capability: Capability): Promise<Map<string, ToolInfo>> {
    const hostTools = await this.tools(capability.toolModules, capability.isolation);
    for (const tool of capability.tools) {
      if (!isBuiltinTool(tool) && !hostTools.has(tool)) {
        const known = [...BUILTIN_TOOL_NAMES, ...hostTools.keys()].join(', ');
        throw new ToolwardenError('INVALID_OPTIONS', `unknown tool '${tool}' in tools; known: ${known}`);
      }
    }
    return hostTools;
  }

  async #probe(moduleUrls: readonly string[], isolation: Capability['isolation']): Promise<Map<string, ToolInfo>> {
    const infos = await probeToolModules(moduleUrls, DEFAULT_LIMITS.workerHeapMb, this.#loadTimeoutMs, isolation, this.#startProcess);
    for (const info of infos) {
      if (isBuiltinTool(info.name)) throw new ToolwardenError('INVALID_OPTIONS', `host tool '${info.name}' would shadow the built-in tool of that name`);
    }
    return new Map(infos.map((info) => [info.name, info]));
  }
}
