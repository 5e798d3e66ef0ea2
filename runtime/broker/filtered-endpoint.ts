import type { Endpoint } from 'comlink';

type Listener = Parameters<Endpoint['addEventListener']>[1];

/**
 * A comlink endpoint that drops every incoming message `accept` refuses, so `Comlink.expose` only ever sees plain
 * calls of the exposed object's methods (never GET, SET or CONSTRUCT, which could walk to prototypes).
 */
export function filterEndpoint(endpoint: Endpoint, accept: (data: unknown) => boolean): Endpoint {
  const wrapped = new Map<Listener, Listener>();
  return {
    postMessage: (message, transfer) => endpoint.postMessage(message, transfer),
    addEventListener: (type, listener) => {
      const filtered: Listener = (event: Event) => {
        if (!accept((event as MessageEvent).data)) return;
        if (typeof listener === 'function') listener(event);
        else listener.handleEvent(event);
      };
      wrapped.set(listener, filtered);
      endpoint.addEventListener(type, filtered);
    },
    removeEventListener: (type, listener) => {
      endpoint.removeEventListener(type, wrapped.get(listener) ?? listener);
      wrapped.delete(listener);
    },
  };
}
