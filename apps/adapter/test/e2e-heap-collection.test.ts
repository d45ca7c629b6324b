// `xprotocol-adapter start` returns the startup's spare heap (runtime/idle-collector.ts,
// runtime/heap-collection.ts): once the first round of catalog listings has ended it runs the
// low-memory collection and logs the heap's size before and after (at debug level).
import { afterAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody, wrapperConfig } from './support/adapter-configs.js';
import { Processes } from './support/processes.js';

const procs = new Processes();
afterAll(() => procs.close());

describe('the start command collects once the catalogs are listed', () => {
  it('logs heap_collected with a heap no larger after than before, and keeps running', async () => {
    const { url: relayUrl } = await procs.relay();
    const caller = await procs.keygen('caller.key');
    await procs.keygen('a.key');
    const config = procs.file(
      'a.yml',
      wrapperConfig({
        keyFile: './a.key',
        relayUrl,
        source: {
          name: 'conformance',
          namespace: 'com.test.conformance',
          body: conformanceStdioBody(),
        },
        grantTo: caller.ed25519,
        stateDatabase: './a.db',
        logLevel: 'debug',
      }),
    );
    const { child, logs } = await procs.adapter(config);
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no heap_collected log after 60 s:\n${logs.slice(-20).join('\n')}`)),
        60_000,
      );
      const look = () => {
        const found = logs.find((l) => l.includes('"event":"heap_collected"'));
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else setTimeout(look, 100);
      };
      look();
    });
    const [before, after] = (JSON.parse(line) as { heapMiB: [number, number] }).heapMiB;
    expect(before).toBeGreaterThan(0);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThanOrEqual(before);
    expect(child.exitCode).toBeNull();
  }, 120_000);
});
