import type { Capability } from '../../src/capability/capability.js';
import { checkPidNamespace } from '../../src/isolation/pid-namespace.js';
import type { SelfTestCheck } from '../../src/sandbox/self-test.js';
import { startToolProcess, type ToolProcess } from '../isolation/start-tool-process.js';
import { createSandbox, featuresOf, withoutZygote, type SandboxChoice } from './create-sandbox.js';
import { detectSandbox, type SandboxDetection } from './detect-sandbox.js';
import { runSandboxSelfTest, runZygoteSelfTest, zygoteUsable } from './run-self-test.js';
import type { ZygoteSlots } from './zygote-slots.js';

/**
 * The OS sandbox of one runtime: detected once, its properties proven once before the first sandboxed command (a
 * property that does not hold fails closed), the session zygote used only where the same properties hold for it.
 */
export class SandboxProvider {
  readonly #zygoteSlots: ZygoteSlots | undefined;
  readonly #allowSharedPidNamespace: boolean;
  #detection: Promise<SandboxDetection> | undefined;
  #selfTest: Promise<SelfTestCheck[]> | undefined;
  #zygoteSelfTest: Promise<boolean> | undefined;

  constructor(options: { zygoteSlots: ZygoteSlots | undefined; allowSharedPidNamespace: boolean }) {
    this.#zygoteSlots = options.zygoteSlots;
    this.#allowSharedPidNamespace = options.allowSharedPidNamespace;
  }

  /** The sandbox for a mode ('off' needs no detection). */
  sandboxFor(mode: Capability['sandbox']): Promise<SandboxChoice> {
    if (mode === 'off') return Promise.resolve(createSandbox('off', { available: false }));
    return this.#detect().then(async (detection) => {
      const checks = detection.available ? await (this.#selfTest ??= runSandboxSelfTest(detection)) : [];
      const choice = createSandbox(mode, detection, checks);
      if (choice.sandbox.zygote === undefined) return choice;
      const settings = this.#zygoteSlots?.settings;
      const zygoteOk = settings !== undefined && (await (this.#zygoteSelfTest ??= runZygoteSelfTest(detection).then((zygoteChecks) => zygoteUsable(zygoteChecks, settings.allowZygoteMemoryWrites))));
      return zygoteOk ? choice : { ...choice, sandbox: withoutZygote(choice.sandbox) };
    });
  }

  /** An isolated tool host process, confined by bubblewrap too unless the sandbox is off or unavailable in 'auto'. */
  async startToolProcess(moduleUrls: readonly string[], heapMb: number, mode: Capability['sandbox']): Promise<ToolProcess> {
    const choice = await this.sandboxFor(mode);
    const detection = choice.sandbox.kind === 'bubblewrap' ? await this.#detect() : undefined;
    checkPidNamespace(detection?.path !== undefined, mode, this.#allowSharedPidNamespace);
    const sandbox = detection?.path === undefined ? undefined : { bwrapPath: detection.path, features: featuresOf(detection) };
    return startToolProcess(moduleUrls, heapMb, sandbox);
  }

  #detect(): Promise<SandboxDetection> {
    return (this.#detection ??= detectSandbox());
  }
}
