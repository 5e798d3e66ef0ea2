// comlink ships its Node adapter without declarations (DEPENDENCIES.md): the one function it exports.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  import type { MessagePort, Worker } from 'node:worker_threads';
  /** A comlink endpoint over a Node MessagePort or Worker (its `on('message')`, so the port keeps its thread alive). */
  export default function nodeEndpoint(port: MessagePort | Worker): Endpoint;
}
