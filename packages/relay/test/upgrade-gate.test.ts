// The two pure parts of the upgrade gate: which texts are origins an operator can allow, and the
// address a client's connections count under (IPv6 by its /64, mapped IPv4 as IPv4).
import { describe, expect, it } from 'vitest';
import { _clientAddress } from '../src/connection-limits.js';
import { _originProblem } from '../src/origin-check.js';

describe('allowed origins', () => {
  it('accepts serialized origins only, and names the origin a near miss meant', () => {
    for (const origin of ['http://localhost:5173', 'https://console.example', 'http://[::1]:8080']) {
      expect(_originProblem(origin), origin).toBeUndefined();
    }
    expect(_originProblem('http://localhost:5173/')).toBe(
      'expects an origin (scheme://host[:port], nothing after it), got "http://localhost:5173/"; did you mean "http://localhost:5173"?',
    );
    expect(_originProblem('https://console.example:443')).toMatch(
      /did you mean "https:\/\/console\.example"\?$/,
    );
    expect(_originProblem('HTTP://LOCALHOST:5173')).toMatch(/did you mean "http:\/\/localhost:5173"\?$/);
    for (const text of ['null', '*', 'localhost:5173', 'file:///srv/page.html', '']) {
      expect(_originProblem(text), text).toMatch(/^expects an origin .*, got ".*"$/);
    }
  });
});

describe('client address', () => {
  it('counts IPv4 as it is, mapped IPv4 as IPv4, IPv6 by its /64', () => {
    expect(_clientAddress('127.0.0.1')).toBe('127.0.0.1');
    expect(_clientAddress('::ffff:127.0.0.2')).toBe('127.0.0.2');
    expect(_clientAddress('::1')).toBe('0:0:0:0::/64');
    expect(_clientAddress('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(_clientAddress('2001:db8:1:2::99')).toBe('2001:db8:1:2::/64');
    expect(_clientAddress('2001:0db8::1')).toBe('2001:db8:0:0::/64');
    expect(_clientAddress('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(_clientAddress(undefined)).toBe('unknown');
  });
});
