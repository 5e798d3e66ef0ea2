import { describe, expect, it } from 'vitest';
import { parseSocks4Request, socks4Reply } from '../../src/net/egress/socks4.js';

describe('SOCKS4 and SOCKS4a parsing', () => {
  const name = [...Buffer.from('example.com')];
  it.each<[string, number[], unknown]>([
    ['too short', [4, 1, 0, 80, 127, 0, 0], undefined],
    ['user id not ended yet', [4, 1, 0, 80, 127, 0, 0, 1, 0x75], undefined],
    ['SOCKS4 to an IPv4 address', [4, 1, 0x1f, 0x90, 127, 0, 0, 1, 0x75, 0], { length: 10, command: 1, host: '127.0.0.1', port: 8080 }],
    ['SOCKS4a name not ended yet', [4, 1, 0, 80, 0, 0, 0, 1, 0, ...name], undefined],
    ['SOCKS4a to a name', [4, 1, 1, 187, 0, 0, 0, 9, 0, ...name, 0], { length: 9 + name.length + 1, command: 1, host: 'example.com', port: 443 }],
    ['0.0.0.0 is an address, not 4a', [4, 1, 0, 80, 0, 0, 0, 0, 0], { length: 9, command: 1, host: '0.0.0.0', port: 80 }],
    ['BIND is read as such', [4, 2, 0, 80, 10, 0, 0, 1, 0], { length: 9, command: 2, host: '10.0.0.1', port: 80 }],
    ['another version', [5, 1, 0, 80, 127, 0, 0, 1, 0], { malformed: 'SOCKS version 5 is not 4' }],
    ['a user id past 255 bytes', [4, 1, 0, 80, 127, 0, 0, 1, ...Array<number>(300).fill(0x61)], { malformed: 'SOCKS4 user id is too long' }],
    ['a name past 255 bytes', [4, 1, 0, 80, 0, 0, 0, 1, 0, ...Array<number>(300).fill(0x61)], { malformed: 'SOCKS4a host name is too long' }],
  ])('%s', (_name, bytes, expected) => {
    expect(parseSocks4Request(Uint8Array.from(bytes))).toEqual(expected);
  });

  it('replies without a bound address', () => {
    expect(Array.from(socks4Reply(90))).toEqual([0, 90, 0, 0, 0, 0, 0, 0]);
  });
});
