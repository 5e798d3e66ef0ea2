export { authorityOf, formatAuthority, isRefusal, parseAuthority, parseHost, parsePort, type Authority, type AuthorityRefusal } from './authority.js';
export { parseHttpUrl, validateFetchRequest, type CheckedFetchRequest, type CheckedUrl, type WebFetchRequest } from './fetch-request.js';
export { BINARY_INLINE_MAX_BYTES, decodeBody, type DecodedBody } from './http-body.js';
export { isPrivateOrLoopback } from './ip-ranges.js';
export {
  allowsAllHosts,
  canonicalizeHost,
  describeNetPermission,
  isExplicitlyListed,
  isHostAllowed,
  matchingNetEntry,
  parseNetRule,
  validateNetPermission,
  type NetPermission,
  type NetRule,
} from './net-permission.js';
