// One full collection after startup (runtime/startup-garbage.ts): it runs, and leaves the
// `--expose-gc` flag off again for contexts made afterwards.
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { collectStartupGarbage } from '../src/runtime/startup-garbage.js';

describe('collectStartupGarbage', () => {
  it('collects an unreachable object and switches the flag off again', async () => {
    let target: object | undefined = { payload: new Array(1000).fill('x') };
    const ref = new WeakRef(target);
    target = undefined;
    // A WeakRef's target survives the current job; the collection runs in the next one.
    await new Promise((resolve) => setImmediate(resolve));
    expect(collectStartupGarbage()).toBe(true);
    expect(ref.deref()).toBeUndefined();
    expect(typeof runInNewContext('typeof gc')).toBe('string');
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
