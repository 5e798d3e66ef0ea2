/** How a dashboard request proved it is the admin: the bearer header (non-browser) or the login cookie (the page). */
export type AdminProof = 'bearer' | 'cookie';

/** The headers a state-changing dashboard request is judged by. */
export interface WriteRequest {
  readonly method: string;
  readonly proof: AdminProof;
  readonly host: string | undefined;
  readonly origin: string | undefined;
  readonly secFetchSite: string | undefined;
  readonly contentType: string | undefined;
}

/** The verdict on a state-changing request. */
export type WriteCheck = { ok: true } | { ok: false; status: 403 | 405 | 415; message: string };

/**
 * Whether a request may change state (answer an approval, stop a process, close a session, log in). Only POST does.
 * A cookie is sent by the browser on its own, so a request it authenticates must also show it comes from the
 * dashboard's own page: an `Origin` that is this very server (`http(s)://<Host>`: not merely an allowed origin, since
 * ports do not separate sites for cookies), a `Sec-Fetch-Site` of `same-origin` when sent, and a JSON body (which a
 * cross-origin form cannot send without a preflight). A bearer header is never sent on its own: no CSRF, no Origin needed.
 */
export function checkWrite(request: WriteRequest): WriteCheck {
  if (request.method !== 'POST') return { ok: false, status: 405, message: `${request.method} changes nothing here: state-changing dashboard requests are POST` };
  const json = /^application\/json\s*(;|$)/i.test(request.contentType ?? '');
  if (!json) return { ok: false, status: 415, message: 'a state-changing dashboard request must send Content-Type: application/json' };
  if (request.proof === 'bearer') return { ok: true };
  if (request.origin === undefined) return { ok: false, status: 403, message: 'a cookie-authenticated POST must carry an Origin header (refused as possible cross-site request forgery)' };
  const own = request.host === undefined ? [] : [`http://${request.host}`, `https://${request.host}`].map((o) => o.toLowerCase());
  if (!own.includes(request.origin.toLowerCase())) {
    return { ok: false, status: 403, message: `Origin '${request.origin}' is not this dashboard's own origin: a cookie-authenticated POST must come from the dashboard page (refused as possible cross-site request forgery)` };
  }
  if (request.secFetchSite !== undefined && request.secFetchSite !== 'same-origin') {
    return { ok: false, status: 403, message: `Sec-Fetch-Site '${request.secFetchSite}' is not same-origin: refused as possible cross-site request forgery` };
  }
  return { ok: true };
}
