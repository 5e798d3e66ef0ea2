import { describe, expect, it } from 'vitest';
import type { SandboxMode } from '../../src/sandbox/types.js';
import { createSandbox, NO_SANDBOX } from '../../runtime/sandbox/create-sandbox.js';
import { detectSandbox, type SandboxDetection } from '../../runtime/sandbox/detect-sandbox.js';

const MISSING: SandboxDetection = { available: false, reason: 'bwrap was not found on PATH' };
const BROKEN: SandboxDetection = { available: false, path: '/usr/bin/bwrap', reason: '/usr/bin/bwrap cannot start a sandbox: No permissions to create new namespace' };
const PRESENT: SandboxDetection = { available: true, path: '/opt/bin/bwrap' };
const scope = { workspaceRoot: '/tmp', readRoots: [], blockedInWorkspace: [], net: false } as const;

describe('createSandbox', () => {
  it.each<[SandboxMode, SandboxDetection, 'bubblewrap' | 'none', boolean]>([
    ['auto', PRESENT, 'bubblewrap', false],
    ['required', PRESENT, 'bubblewrap', false],
    ['off', PRESENT, 'none', false],
    ['off', MISSING, 'none', false],
    ['auto', MISSING, 'none', true],
    ['auto', BROKEN, 'none', true],
  ])('mode %s with %j gives kind %s (warning: %s)', (mode, detection, kind, warns) => {
    const choice = createSandbox(mode, detection);
    expect(choice.sandbox.kind).toBe(kind);
    expect(choice.warning !== undefined).toBe(warns);
    if (warns) expect(choice.warning).toMatch(new RegExp(`${detection.reason ?? ''}.*apt-get install bubblewrap`));
  });

  it.each([MISSING, BROKEN])("fails closed in 'required' mode without a working bwrap (%j)", (detection) => {
    expect(() => createSandbox('required', detection)).toThrowError(
      expect.objectContaining({ code: 'SANDBOX_UNAVAILABLE', message: expect.stringMatching(/apt-get install bubblewrap/) }),
    );
  });

  it('refuses an unknown mode', () => {
    expect(() => createSandbox('maybe' as SandboxMode, PRESENT)).toThrowError(expect.objectContaining({ code: 'INVALID_OPTIONS' }));
  });

  it('starts the detected bwrap through a shell that opens the seccomp filter, and leaves the command unchanged without a sandbox', () => {
    const wrapped = createSandbox('required', PRESENT).sandbox.wrap(['echo', 'hi'], scope, '/tmp');
    expect(wrapped.slice(0, 3)).toEqual(['/bin/sh', '-c', 'exec 3<"$0" && exec "$@"']);
    expect(wrapped[3]).toMatch(/toolwarden-seccomp-.*filter\.bpf$/);
    expect(wrapped[4]).toBe('/opt/bin/bwrap');
    expect(wrapped).toContain('--seccomp');
    expect(wrapped.slice(-3)).toEqual(['--', 'echo', 'hi']);
    expect(NO_SANDBOX.wrap(['echo', 'hi'], scope, '/tmp')).toEqual(['echo', 'hi']);
  });
});

describe('detectSandbox', () => {
  it('reports bwrap missing from an empty PATH', async () => {
    expect(await detectSandbox({ envPath: '' })).toEqual({ available: false, reason: 'bwrap was not found on PATH' });
  });

  it('ignores relative PATH entries', async () => {
    expect((await detectSandbox({ envPath: '.:usr/bin' })).available).toBe(false);
  });
});
