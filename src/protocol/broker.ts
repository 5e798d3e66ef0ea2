import type { ChangeStep, CtxFsOp, GrepArgs } from '../protocol.js';

/**
 * The broker's wire protocol: what a session worker or a tool host process may send the main thread, and the reply.
 * Plain data only, versioned, one discriminated union; {@link parseBrokerRequest} is the one place it is checked,
 * for the worker port and the tool process IPC alike. Every request names the in-flight call it serves (`callId`,
 * minted by the main thread per admitted call); `seq` pairs it with its reply.
 */
export const BROKER_PROTOCOL_VERSION = 1;

type Request<T extends string, Fields> = { v: typeof BROKER_PROTOCOL_VERSION; type: T; seq: number; callId: string } & Fields;

/** Plain data that crossed a thread or process boundary: objects with own keys only, arrays, primitives. */
export type PlainObject = Record<string, unknown>;

/** One broker request. */
export type BrokerRequest =
  | Request<'readFile', { path: string }>
  | Request<'readFileStrict', { path: string }>
  | Request<'writeFile', { path: string; content: string }>
  | Request<'listDir', { path?: string }>
  | Request<'glob', { pattern: string; path?: string }>
  | Request<'grep', { request: GrepArgs }>
  | Request<'applyChanges', { steps: ChangeStep[] }>
  | Request<'ctxFs', { op: CtxFsOp; args: PlainObject }>
  | Request<'ctxExec', { args: PlainObject }>
  | Request<'ctxFetch', { args: PlainObject }>
  | Request<'ctxMcp', { tool: string; args: PlainObject }>
  | Request<'log', { level: 'info' | 'warn' | 'error'; message: string; data?: unknown }>;

/** The request types (the broker's methods). */
export type BrokerRequestType = BrokerRequest['type'];

/** The main thread's answer to one request. */
export interface BrokerResponse {
  v: typeof BROKER_PROTOCOL_VERSION;
  type: 'reply';
  seq: number;
  reply: unknown;
}

/** A checked request, or why the message is not one (with what could be read of it, for the reply and the audit). */
export type ParsedBrokerRequest =
  | { ok: true; request: BrokerRequest }
  | { ok: false; reason: string; seq?: number; callId?: string; type?: string };

type Field = 'string' | 'plain' | 'grep' | 'steps' | 'level' | 'ctxOp' | 'any';
type Shape = Readonly<Record<string, { field: Field; optional?: true }>>;

const req = (field: Field): { field: Field } => ({ field });
const opt = (field: Field): { field: Field; optional: true } => ({ field, optional: true });

/** The fields of each request type; one entry per broker method, nothing else is a request. */
const SHAPES: Readonly<Record<BrokerRequestType, Shape>> = {
  readFile: { path: req('string') },
  readFileStrict: { path: req('string') },
  writeFile: { path: req('string'), content: req('string') },
  listDir: { path: opt('string') },
  glob: { pattern: req('string'), path: opt('string') },
  grep: { request: req('grep') },
  applyChanges: { steps: req('steps') },
  ctxFs: { op: req('ctxOp'), args: req('plain') },
  ctxExec: { args: req('plain') },
  ctxFetch: { args: req('plain') },
  ctxMcp: { tool: req('string'), args: req('plain') },
  log: { level: req('level'), message: req('string'), data: opt('any') },
};

/**
 * Each broker method's parameters in order: the fields of its request, as SHAPES lists them. The one list of the
 * broker's operations the worker's client and the main thread's server are both made from, so neither can miss one.
 */
export const BROKER_METHOD_PARAMS: Readonly<Record<BrokerRequestType, readonly string[]>> = Object.fromEntries(
  Object.entries(SHAPES).map(([type, shape]) => [type, Object.keys(shape)]),
) as unknown as Record<BrokerRequestType, readonly string[]>;

/** The request types, in SHAPES' order. */
export const BROKER_REQUEST_TYPES = Object.keys(SHAPES) as readonly BrokerRequestType[];

/** A method call's request body: its type, and its arguments under their fields (an undefined one left out). */
export function brokerRequestBody(type: BrokerRequestType, args: readonly unknown[]): Record<string, unknown> {
  const body: Record<string, unknown> = { type };
  BROKER_METHOD_PARAMS[type].forEach((field, i) => {
    if (args[i] !== undefined) body[field] = args[i];
  });
  return body;
}

/** A checked request's arguments, in its method's order. */
export function brokerRequestArgs(request: BrokerRequest): unknown[] {
  const fields = request as unknown as Record<string, unknown>;
  return BROKER_METHOD_PARAMS[request.type].map((field) => fields[field]);
}

/** Request types whose reply is a ToolResult; the others reply with a BrokerReply (log with nothing). */
export const TOOL_RESULT_REQUESTS: ReadonlySet<BrokerRequestType> = new Set(['ctxExec', 'ctxFetch', 'ctxMcp']);

const BASE_KEYS = new Set(['v', 'type', 'seq', 'callId']);
const CTX_OPS = new Set(['readFile', 'writeFile', 'editFile', 'list', 'stat', 'glob', 'grep']);
const LEVELS = new Set(['info', 'warn', 'error']);
const GREP_SHAPE: Shape = { pattern: req('string'), path: opt('string'), glob: opt('string'), ignoreCase: opt('any'), maxResults: opt('any') };
const STEP_SHAPE: Shape = { kind: req('string'), path: req('string'), content: opt('string') };
/** Keys that name prototypes: refused anywhere in a request, so no handler can be led to one. */
const PROTOTYPE_KEYS = new Set(['__proto__', 'constructor', 'prototype']);
const MAX_DEPTH = 16;
const MAX_CALL_ID = 64;

/**
 * Checks a message received from a worker or tool process. Only a plain object of a known type, this version, with
 * exactly that type's fields (strings where strings belong, plain data elsewhere) is a request.
 * @example parseBrokerRequest({ v: 1, type: 'readFile', seq: 1, callId: 'c', path: 'a.txt' }).ok // true
 */
export function parseBrokerRequest(data: unknown): ParsedBrokerRequest {
  if (!isPlainObject(data)) return { ok: false, reason: 'a broker request must be a plain object' };
  const seq = Number.isSafeInteger(data['seq']) ? (data['seq'] as number) : undefined;
  const callId = typeof data['callId'] === 'string' && data['callId'].length <= MAX_CALL_ID ? data['callId'] : undefined;
  const rawType = data['type'];
  const type = typeof rawType === 'string' && Object.hasOwn(SHAPES, rawType) ? (rawType as BrokerRequestType) : undefined;
  const known = { ...(seq === undefined ? {} : { seq }), ...(callId === undefined ? {} : { callId }), ...(type === undefined ? {} : { type }) };
  const refuse = (reason: string): ParsedBrokerRequest => ({ ok: false, reason, ...known });
  if (data['v'] !== BROKER_PROTOCOL_VERSION) return refuse(`unsupported broker protocol version ${describe(data['v'])} (expected ${BROKER_PROTOCOL_VERSION})`);
  if (type === undefined) return refuse(`unknown broker request type ${describe(rawType)}`);
  if (seq === undefined || seq < 0) return refuse('seq must be a non-negative integer');
  if (callId === undefined || callId.length === 0) return refuse(`callId must be a non-empty string of at most ${MAX_CALL_ID} characters`);
  const problem = checkShape(data, SHAPES[type], BASE_KEYS, type);
  return problem === undefined ? { ok: true, request: data as unknown as BrokerRequest } : refuse(problem);
}

/** Whether a message from the main thread is a reply of this protocol. */
export function isBrokerResponse(data: unknown): data is BrokerResponse {
  return isPlainObject(data) && data['v'] === BROKER_PROTOCOL_VERSION && data['type'] === 'reply' && Number.isSafeInteger(data['seq']);
}

function checkShape(data: PlainObject, shape: Shape, extra: ReadonlySet<string>, where: string): string | undefined {
  for (const key of Object.keys(data)) {
    if (!extra.has(key) && !Object.hasOwn(shape, key)) return `${where}: unexpected field '${key}'`;
  }
  for (const [name, { field, optional }] of Object.entries(shape)) {
    const value = data[name];
    if (value === undefined) {
      if (optional) continue;
      return `${where}: ${name} is required`;
    }
    const problem = checkField(field, value, `${where}.${name}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function checkField(field: Field, value: unknown, where: string): string | undefined {
  switch (field) {
    case 'string':
      return typeof value === 'string' ? undefined : `${where} must be a string`;
    case 'level':
      return typeof value === 'string' && LEVELS.has(value) ? undefined : `${where} must be info, warn or error`;
    case 'ctxOp':
      return typeof value === 'string' && CTX_OPS.has(value) ? undefined : `${where}: unknown ctx.fs operation ${describe(value)}`;
    case 'plain':
      return isPlainObject(value) ? plainDataProblem(value, where, 0) : `${where} must be a plain object`;
    case 'any':
      return plainDataProblem(value, where, 0);
    case 'grep':
      if (!isPlainObject(value)) return `${where} must be a plain object`;
      return checkShape(value, GREP_SHAPE, new Set(), where) ?? plainDataProblem(value, where, 0);
    case 'steps':
      if (!Array.isArray(value)) return `${where} must be an array`;
      for (const [i, step] of value.entries()) {
        if (!isPlainObject(step)) return `${where}[${i}] must be a plain object`;
        const problem = checkShape(step, STEP_SHAPE, new Set(), `${where}[${i}]`);
        if (problem !== undefined) return problem;
        if (step['kind'] !== 'write' && step['kind'] !== 'delete') return `${where}[${i}].kind must be write or delete`;
      }
      return undefined;
  }
}

/** Why a value is not plain data (own-key objects, arrays, primitives), or undefined when it is. */
function plainDataProblem(value: unknown, where: string, depth: number): string | undefined {
  if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) return undefined;
  if (depth >= MAX_DEPTH) return `${where} is nested deeper than ${MAX_DEPTH}`;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = plainDataProblem(item, where, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (!isPlainObject(value)) return `${where} holds a value that is not plain data`;
  for (const [key, item] of Object.entries(value)) {
    if (PROTOTYPE_KEYS.has(key)) return `${where} has the prototype key '${key}'`;
    const problem = plainDataProblem(item, `${where}.${key}`, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function isPlainObject(value: unknown): value is PlainObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function describe(value: unknown): string {
  return typeof value === 'string' ? `'${value.slice(0, 40)}'` : typeof value;
}
