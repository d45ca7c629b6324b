// The per-source rate limit split between replicas of one key (docs/deploy.md): with N replicas
// live, each lets through 1/N of the configured rate, so all of them together keep the total.
import { describe, expect, it } from 'vitest';
import { _SourceRateLimits } from '../src/endpoint/endpoint-limits.js';

describe('source rate limits across replicas', () => {
  it('lets each of three replicas through a third of the rate, the configured total together', () => {
    let live = 3;
    const replicas = [0, 1, 2].map(() => new _SourceRateLimits(new Map([['fs', 60]]), () => live));
    const allowed = replicas.map((limits) => {
      let n = 0;
      while (limits.take('fs', 'caller', 0) === undefined) n++;
      return n;
    });
    expect(allowed).toEqual([20, 20, 20]);
    expect(replicas[0]!.take('fs', 'caller', 0)).toMatchObject({ code: 'RATE_LIMITED' });
    // One replica left: it takes one token a call again, and the refill is the whole rate.
    live = 1;
    expect(replicas[0]!.take('fs', 'caller', 1000)).toBeUndefined();
  });

  it('takes one token a call when alone', () => {
    const limits = new _SourceRateLimits(new Map([['fs', 5]]));
    for (let i = 0; i < 5; i++) expect(limits.take('fs', 'caller', 0)).toBeUndefined();
    expect(limits.take('fs', 'caller', 0)).toMatchObject({ code: 'RATE_LIMITED' });
  });
});
