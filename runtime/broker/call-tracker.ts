/**
 * The tool calls a session has in flight, as the main thread admitted them. The broker answers a worker's request
 * only while a call that needs it is in flight, so a worker (or a compromised tool host process) cannot use the
 * built-in tools' broker operations to get around the rules applied to host tools' `ctx` requests.
 */
export class CallTracker {
  readonly #active = new Map<string, number>();
  #hostToolCalls = 0;
  readonly #isHostTool: (name: string) => boolean;

  constructor(isHostTool: (name: string) => boolean) {
    this.#isHostTool = isHostTool;
  }

  /** Records a call as in flight; the returned function ends it. */
  enter(tool: string): () => void {
    this.#active.set(tool, (this.#active.get(tool) ?? 0) + 1);
    const hostTool = this.#isHostTool(tool);
    if (hostTool) this.#hostToolCalls += 1;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      const count = (this.#active.get(tool) ?? 1) - 1;
      if (count === 0) this.#active.delete(tool);
      else this.#active.set(tool, count);
      if (hostTool) this.#hostToolCalls -= 1;
    };
  }

  /** Whether a call of any of these tools is in flight. */
  serving(tools: readonly string[]): boolean {
    return tools.some((tool) => this.#active.has(tool));
  }

  /** Whether a host-defined tool call is in flight. */
  get servingHostTool(): boolean {
    return this.#hostToolCalls > 0;
  }
}
