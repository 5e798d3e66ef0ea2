/**
 * One end of a message channel between the main thread and a tool host: a worker's MessagePort, one logical channel
 * of a tool process's IPC (see ipc-channels.ts), or an in-memory pair (in-memory-transport.ts). Every protocol of
 * src/protocol runs over it; messages are plain data, delivered asynchronously and in order.
 */
export interface Transport<Out = unknown> {
  /** Sends one message to the other end; must not throw once the channel is gone. */
  post(message: Out): void;
  /** Registers the one standing listener for incoming messages (a listener per request would cost one per call). */
  listen(listener: (data: unknown) => void): void;
}
