import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { AdminProof } from '../../../src/serve/dashboard-write-rule.js';

/** The dashboard's login cookie: a random login id (never the admin token), HttpOnly, SameSite=Strict, path /ui. */
export const ADMIN_COOKIE = 'tw_admin';
/** How long a dashboard login lasts. */
export const LOGIN_TTL_MS = 8 * 60 * 60 * 1000;
/** Logins kept at once; the oldest is dropped past this. */
const MAX_LOGINS = 64;

/** Who a dashboard request is, or why it is nobody. */
export type AdminCheck = { ok: true; proof: AdminProof } | { ok: false; message: string };

/** The admin token check of the dashboard, and its logins. */
export interface AdminAuth {
  /**
   * Checks `Authorization: Bearer <admin token>`, or the login cookie together with its login key (`loginKey`). The
   * key is what makes the cookie alone worthless: browsers send cookies to every port of a host, so another server on
   * 127.0.0.1 the admin's browser visits receives the cookie, but never the key, which the page keeps per origin.
   */
  check(headers: { authorization?: string | undefined; cookie?: string | undefined; loginKey?: string | undefined }): AdminCheck;
  /** The login key of a login's cookie value, which the login reply gives the page (an HMAC under a secret of this server). */
  keyOf(cookieValue: string): string;
  /** A new login for the admin token: the cookie value, or undefined for any other token. */
  login(token: unknown): string | undefined;
  /** Ends the login the cookie header names, if any. */
  logout(cookie: string | undefined): void;
}

/**
 * Builds the dashboard's authentication. Tokens and login ids are compared as SHA-256 digests in constant time;
 * a user's bearer token is just another wrong token here.
 */
export function createAdminAuth(adminToken: string, now: () => number = Date.now): AdminAuth {
  const expected = digest(adminToken);
  const keySecret = randomBytes(32);
  const keyOf = (value: string): string => createHmac('sha256', keySecret).update(value).digest('base64url');
  const logins = new Map<string, number>();
  const isAdmin = (token: string): boolean => timingSafeEqual(digest(token), expected);
  const loginOf = (cookie: string | undefined): Buffer | undefined => {
    const value = readCookie(cookie, ADMIN_COOKIE);
    return value === undefined ? undefined : digest(value);
  };
  return {
    check: ({ authorization, cookie, loginKey }) => {
      if (authorization !== undefined) {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
        return match?.[1] !== undefined && isAdmin(match[1]) ? { ok: true, proof: 'bearer' } : { ok: false, message: "the bearer token is not the admin token (a user's token never opens the dashboard)" };
      }
      const value = readCookie(cookie, ADMIN_COOKIE);
      if (value === undefined) return { ok: false, message: 'not logged in: send "Authorization: Bearer <admin token>" or log in on the dashboard page' };
      const expires = logins.get(digest(value).toString('hex'));
      if (expires === undefined || expires <= now()) return { ok: false, message: 'the dashboard login is unknown or expired: log in again' };
      if (loginKey === undefined || !timingSafeEqual(digest(loginKey), digest(keyOf(value)))) {
        return { ok: false, message: 'the login cookie came without its login key (x-tw-login-key): log in again on the dashboard page' };
      }
      return { ok: true, proof: 'cookie' };
    },
    keyOf,
    login: (token) => {
      if (typeof token !== 'string' || !isAdmin(token)) return undefined;
      const value = randomBytes(32).toString('base64url');
      for (const [key, expires] of logins) if (expires <= now()) logins.delete(key);
      if (logins.size >= MAX_LOGINS) logins.delete(logins.keys().next().value as string);
      logins.set(digest(value).toString('hex'), now() + LOGIN_TTL_MS);
      return value;
    },
    logout: (cookie) => {
      const login = loginOf(cookie);
      if (login !== undefined) logins.delete(login.toString('hex'));
    },
  };
}

/** The `Set-Cookie` value of a login (empty value and `Max-Age=0` ends it). */
export function loginCookie(value: string, secure: boolean): string {
  const maxAge = value === '' ? 0 : Math.floor(LOGIN_TTL_MS / 1000);
  return `${ADMIN_COOKIE}=${value}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure ? '; Secure' : ''}`;
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
