import { describe, expect, it } from 'vitest';
import { fillSecretPlaceholders, validateMcpServers } from '../../src/mcp/index.js';
import type { McpServerConfig } from '../../src/mcp/index.js';
import { errorOf } from './helpers.js';


describe('validateMcpServers', () => {
  it.each([
    ['a stdio server', { gh: { command: 'node', args: ['s.mjs'], env: { A: '1' }, cwd: '/tmp' } }],
    ['an http server', { 'remote-1': { url: 'https://example.com/mcp', headers: { authorization: 'Bearer x' } } }],
    ['a per-user placeholder', { gh: { command: 'x', env: { TOKEN: '${user.token}' }, perUser: true } }],
    ['a per-user header placeholder', { gh: { url: 'http://127.0.0.1:1/mcp', headers: { a: 'Bearer ${user.t}' }, perUser: true } }],
    ['a per-user header naming a session credential', { gh: { url: 'https://api.test/mcp', headers: { authorization: 'Bearer ${credential.GH_TOKEN}' }, perUser: true } }],
    ['a config function', { gh: () => ({ command: 'x' }) }],
    ['no servers', {}],
  ])('accepts %s', (_name, value) => {
    expect(validateMcpServers(value)).toBe(value);
  });

  it.each([
    ['not an object', [], /mcpServers must be an object/],
    ['an id with a space', { 'a b': { command: 'x' } }, /id 'a b'/],
    ['an id with __', { a__b: { command: 'x' } }, /id 'a__b'/],
    ['an id ending in _', { a_: { command: 'x' } }, /id 'a_'/],
    ['an empty id', { '': { command: 'x' } }, /id ''/],
    ['both command and url', { s: { command: 'x', url: 'http://h' } }, /mcpServers\.s must have exactly one/],
    ['neither command nor url', { s: { args: [] } }, /mcpServers\.s must have exactly one/],
    ['an empty command', { s: { command: '' } }, /mcpServers\.s\.command/],
    ['args not strings', { s: { command: 'x', args: [1] } }, /mcpServers\.s\.args/],
    ['env not strings', { s: { command: 'x', env: { A: 1 } } }, /mcpServers\.s\.env\.A/],
    ['a non-http url', { s: { url: 'file:///etc/passwd' } }, /mcpServers\.s\.url/],
    ['a bad url', { s: { url: 'not a url' } }, /mcpServers\.s\.url/],
    ['headers on stdio', { s: { command: 'x', headers: {} } }, /mcpServers\.s\.headers is not a known field/],
    ['perUser not boolean', { s: { command: 'x', perUser: 'yes' } }, /mcpServers\.s\.perUser/],
    ['a placeholder on a shared server', { s: { command: 'x', env: { T: '${user.token}' } } }, /mcpServers\.s\.env\.T .*needs perUser: true/],
    ['a header placeholder on a shared server', { s: { url: 'http://h', headers: { a: '${user.t}' } } }, /mcpServers\.s\.headers\.a/],
    // A credential is one session's (or user's): a shared connection would hand it to every other user.
    ['a credential on a shared server', { s: { url: 'http://h', headers: { a: 'Bearer ${credential.T}' } } }, /mcpServers\.s\.headers\.a .*needs perUser: true/],
    // A stdio server would hold the value itself and could send it anywhere: hosts cannot be kept.
    ['a credential in a stdio env', { s: { command: 'x', env: { T: '${credential.T}' }, perUser: true } }, /mcpServers\.s\.env\.T names a credential.*HTTP server's headers/],
    ['a malformed credential reference', { s: { url: 'http://h', headers: { a: 'Bearer ${credential.my-token}' }, perUser: true } }, /mcpServers\.s\.headers\.a .*\$\{credential\.NAME\}/],
    ['an empty credential reference', { s: { url: 'http://h', headers: { a: '${credential.}' }, perUser: true } }, /mcpServers\.s\.headers\.a /],
  ])('refuses %s with INVALID_OPTIONS naming it', (_name, value, message) => {
    const error = errorOf(() => validateMcpServers(value));
    expect(error?.code).toBe('INVALID_OPTIONS');
    expect(error?.message).toMatch(message);
  });
});

describe('fillSecretPlaceholders', () => {
  const alice = { user: 'alice', secrets: { token: 'tA', org: 'acme' } };
  it.each<[string, McpServerConfig, McpServerConfig]>([
    ['env values', { command: 'x', env: { TOKEN: '${user.token}', KEEP: 'plain' }, perUser: true }, { command: 'x', env: { TOKEN: 'tA', KEEP: 'plain' }, perUser: true }],
    ['several in one value', { command: 'x', env: { A: '${user.org}/${user.token}' } }, { command: 'x', env: { A: 'acme/tA' } }],
    ['headers', { url: 'http://h', headers: { authorization: 'Bearer ${user.token}' } }, { url: 'http://h', headers: { authorization: 'Bearer tA' } }],
    ['no env', { command: 'x', args: ['${user.token}'] }, { command: 'x', args: ['${user.token}'] }],
    ['a look-alike left alone', { command: 'x', env: { A: '$user.token ${token}' } }, { command: 'x', env: { A: '$user.token ${token}' } }],
  ])('fills %s', (_name, config, filled) => {
    expect(fillSecretPlaceholders(config, alice)).toEqual(filled);
  });

  it('does not change the original config', () => {
    const config: McpServerConfig = { command: 'x', env: { TOKEN: '${user.token}' } };
    fillSecretPlaceholders(config, alice);
    expect(config).toEqual({ command: 'x', env: { TOKEN: '${user.token}' } });
  });

  it.each([
    ['a secret the user lacks', { command: 'x', env: { TOKEN: '${user.missing}' } }, { token: 't' }],
    ['an inherited property name', { command: 'x', env: { TOKEN: '${user.constructor}' } }, {}],
    ['a header secret', { url: 'http://h', headers: { a: '${user.token}' } }, {}],
  ])('refuses %s with INVALID_OPTIONS naming server and secret, never filling it empty', (_name, config, secrets) => {
    const error = errorOf(() => fillSecretPlaceholders(config as McpServerConfig, { user: 'bob', secrets }, 'gh'));
    expect(error?.code).toBe('INVALID_OPTIONS');
    expect(error?.message).toMatch(/mcpServers\.gh\..* needs secret '(missing|constructor|token)', which user 'bob' does not have/);
  });
});
