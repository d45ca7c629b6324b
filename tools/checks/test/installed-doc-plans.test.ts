/**
 * Every command line README.md, docs/ and the package READMEs show a user has a plan in
 * _installed-doc-plans.ts (run against the global install by tarballs.test.ts, or excluded with its
 * reason), and every plan is for a line a document still shows. Checked here on its own, without
 * packing or installing anything, so a new documented line fails in seconds, not after the slow
 * install.
 * @module
 */
import { describe, expect, it } from 'vitest';
import { PLANS } from './_installed-doc-plans.js';
import { installedRuns } from './_installed-docs.js';

describe('plans for the documented command lines', () => {
  const runs = installedRuns();

  it('every documented line is run or excluded with its reason', () => {
    const unplanned = runs
      .filter((r) => PLANS[r.raw] === undefined)
      .map((r) => `${r.files.join(', ')}: ${r.raw}`);
    expect(unplanned, 'documented lines neither run nor excluded in _installed-doc-plans.ts').toEqual([]);
  });

  it('every plan is for a line a document shows', () => {
    const stale = Object.keys(PLANS).filter((raw) => !runs.some((r) => r.raw === raw));
    expect(stale, 'plans in _installed-doc-plans.ts for lines no document shows').toEqual([]);
  });
});
