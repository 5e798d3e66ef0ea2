import { once } from 'node:events';
import { IpcChannels } from '../../src/protocol/ipc-channels.js';
import type { ProcessIpcMessage } from '../../src/protocol/process-ipc.js';
import { transportEndpoint } from '../../src/protocol/tool-host-control.js';
import type { ToolHostLink } from './tool-host-connection.js';
import type { ToolProcess } from '../isolation/start-tool-process.js';

/**
 * The link to a started tool host process: the broker, tool host and control channels multiplexed over its one IPC
 * channel.
 * Stopping it kills the whole process (SIGKILL: tool code may ignore SIGTERM; it may not start children, so nothing
 * outlives it).
 */
export function processLink(started: ToolProcess): ToolHostLink {
  const { child, output } = started;
  const send = (message: ProcessIpcMessage): void => {
    if (child.connected) child.send(message);
  };
  const channels = new IpcChannels(send);
  child.on('message', (message: unknown) => channels.deliver(message));
  return {
    kind: 'tool process',
    broker: channels.transport('broker'),
    host: channels.transport('host'),
    control: transportEndpoint(channels.transport('control')),
    onExit: (listener) => {
      let lastError = '';
      child.on('error', (error) => {
        lastError = error.message;
      });
      const exited = (code: number | null, signal: NodeJS.Signals | null): void => {
        const outOfMemory = output.some((line) => line.includes('heap out of memory'));
        const how = outOfMemory ? 'the tool process ran out of memory' : `the tool process exited with ${signal ?? `code ${code}`}`;
        listener(lastError ? `${how} (${lastError})` : how);
      };
      if (child.exitCode !== null || child.signalCode !== null) exited(child.exitCode, child.signalCode);
      else child.once('exit', exited);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGKILL');
      await gone;
    },
    // The process owns its IPC channel; it is closed when the process is killed or exits.
    release: () => undefined,
    output,
  };
}
