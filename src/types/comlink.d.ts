// comlink ships no .d.mts for its ESM build; the ESM copy has the same API as the typed UMD one.
declare module 'comlink/dist/esm/comlink.mjs' {
  export * from 'comlink';
}
declare module 'comlink/dist/esm/node-adapter.mjs' {
  import type { Endpoint } from 'comlink';
  import type { MessagePort, Worker } from 'node:worker_threads';
  const nodeEndpoint: (nep: MessagePort | Worker) => Endpoint;
  export default nodeEndpoint;
}
