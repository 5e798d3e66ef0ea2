import { ToolwardenError } from '../errors.js';
import { isRefusal, type Authority } from './authority.js';
import { authorityOfUrl } from './url-authority.js';

/** The arguments of the `web_fetch` tool. */
export interface WebFetchRequest {
  /** An http: or https: URL. */
  readonly url: string;
  /** @default 'GET' */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A request body (not with GET or HEAD). */
  readonly body?: string;
  /** Body bytes to keep; capped by the session's limit. */
  readonly maxBytes?: number;
}

/** An http(s) URL and the one authority (host, port) it is fetched from. */
export interface CheckedUrl {
  readonly url: URL;
  readonly authority: Authority;
}

/** A request after validation: URL parsed, method upper case, headers lower case. */
export interface CheckedFetchRequest {
  readonly url: CheckedUrl;
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | undefined;
  readonly maxBytes: number | undefined;
}

const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// toolwarden sets these itself; letting a caller set them would desynchronize the message framing or the vetted host.
const RESERVED_HEADERS: ReadonlySet<string> = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'upgrade', 'expect', 'te', 'keep-alive', 'proxy-connection', 'trailer']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** Validates web_fetch arguments; throws INVALID_ARGS naming the argument and the rule. */
export function validateFetchRequest(req: unknown): CheckedFetchRequest {
  if (typeof req !== 'object' || req === null) throw invalid('web_fetch arguments must be an object with a "url"');
  const { url, method = 'GET', headers = {}, body, maxBytes } = req as Record<string, unknown>;
  if (typeof url !== 'string') throw invalid('url must be a string');
  const parsed = parseHttpUrl(url);
  if (typeof method !== 'string' || !METHODS.has(method.toUpperCase())) throw invalid(`method ${JSON.stringify(method)} must be one of ${[...METHODS].join(', ')}`);
  const upper = method.toUpperCase();
  if (body !== undefined && typeof body !== 'string') throw invalid('body must be a string');
  if (body !== undefined && (upper === 'GET' || upper === 'HEAD')) throw invalid(`a body cannot be sent with ${upper}`);
  if (maxBytes !== undefined && (typeof maxBytes !== 'number' || !Number.isSafeInteger(maxBytes) || maxBytes < 1)) throw invalid('maxBytes must be a positive integer');
  return { url: parsed, method: upper, headers: validateHeaders(headers), body, maxBytes };
}

/**
 * Parses an absolute http(s) URL (or one relative to `base`) without credentials, whose host and port read the same
 * by the URL standard and by the strict authority grammar; throws INVALID_ARGS naming the URL and the rule otherwise.
 */
export function parseHttpUrl(url: string, base?: URL): CheckedUrl {
  let parsed: URL;
  try {
    parsed = new URL(url, base);
  } catch {
    throw invalid(`url ${JSON.stringify(url)} is not a valid absolute URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid(`url ${JSON.stringify(parsed.href)} must use http: or https:, not ${parsed.protocol}`);
  if (parsed.username !== '' || parsed.password !== '') throw invalid(`url ${JSON.stringify(url)} must not embed credentials; send an Authorization header instead`);
  const authority = authorityOfUrl(parsed, url);
  if (isRefusal(authority)) throw invalid(`url ${JSON.stringify(url)} has no valid host and port: ${authority.reason}`);
  return { url: parsed, authority };
}

function validateHeaders(headers: unknown): Record<string, string> {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) throw invalid('headers must be an object of string values');
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(lower)) throw invalid(`header name ${JSON.stringify(name)} is not a valid token`);
    if (RESERVED_HEADERS.has(lower)) throw invalid(`header ${JSON.stringify(name)} is set by toolwarden and cannot be given`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw invalid(`header ${JSON.stringify(name)} must be a string without CR, LF or NUL`);
    out[lower] = value;
  }
  return out;
}

function invalid(message: string): ToolwardenError {
  return new ToolwardenError('INVALID_ARGS', `web_fetch: ${message}`);
}
