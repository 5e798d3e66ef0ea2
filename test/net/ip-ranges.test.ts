import { describe, expect, it } from 'vitest';
import { isPrivateOrLoopback } from '../../src/net/ip-ranges.js';

const PRIVATE = [
  '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
  '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '255.255.255.255',
  '::1', '[::1]', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%eth0', 'ff02::1',
  '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.1.2.3', '::ffff:169.254.169.254', '::127.0.0.1',
  '64:ff9b::7f00:1', '2002:7f00:1::', '0:0:0:0:0:0:0:1', 'not-an-ip', '',
];
const PUBLIC = [
  '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '192.169.0.1', '100.63.255.255', '100.128.0.1',
  '11.0.0.1', '2001:4860:4860::8888', '::ffff:8.8.8.8', '2606:4700::1111', '64:ff9b::808:808', 'fbff::1',
];

describe('isPrivateOrLoopback', () => {
  it.each(PRIVATE)('refuses %s (loopback, private, link-local, reserved, mapped or not an IP)', (ip) => {
    expect(isPrivateOrLoopback(ip)).toBe(true);
  });
  it.each(PUBLIC)('accepts the public near miss %s', (ip) => {
    expect(isPrivateOrLoopback(ip)).toBe(false);
  });
});
