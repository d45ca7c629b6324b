// A bounded sample of every fuzz target, with a fixed seed so a failure replays
// (`pnpm fuzz --seed 20261125 --target <name>`). The full run is `pnpm fuzz` (a million inputs).
import { describe, expect, it } from 'vitest';
import { runFuzz, TARGETS } from '../src/index.js';

const SEED = 20261125;

describe('fuzz sample: every input answered or dropped by rule, no crash, no hang', () => {
  it.each(TARGETS.map((t) => [t.name, t] as const))('%s', async (_name, target) => {
    const [result] = await runFuzz([target], { inputs: 400 * target.weight, seed: SEED });
    expect(result!.failure, `${target.rule}\n${JSON.stringify(result!.failure, null, 2)}`).toBeUndefined();
    expect(result!.inputs).toBe(400 * target.weight);
  });
});
