// The OTLP/HTTP JSON exporter (docs/operating.md, "Traces") against a collector on loopback that
// decodes what it receives: spans of a tracer arrive as one ExportTraceServiceRequest with the
// resource, hex ids, decimal-string times, the parent link, attributes and status; a batch leaves
// as soon as it is full; a queue past its bound drops and says so; a collector that refuses or is
// gone is reported, and the tracer goes on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OtlpHttpExporter } from '../src/observe/otlp-http-exporter.js';
import { Tracer } from '../src/observe/tracer.js';

interface Received {
  path: string | undefined;
  type: string | undefined;
  body: {
    resourceSpans: {
      resource: unknown;
      scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[];
    }[];
  };
}

let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

/** A collector on an in-process loopback listener (kept open: its port is never released and reused). */
async function collector(status = 200): Promise<{ url: string; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(text) });
      res.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/v1/traces`, received };
}

describe('OtlpHttpExporter', () => {
  it('sends ended spans as one OTLP/JSON request with their resource, ids, parent, times and status', async () => {
    const { url, received } = await collector();
    const exporter = new OtlpHttpExporter({
      url,
      serviceName: 'svc',
      resource: { 'service.version': '1.2.3' },
    });
    const tracer = new Tracer(exporter);
    const root = tracer.startSpan('root', { kind: 'server', attributes: { n: 3, ok: true, r: 0.5 } });
    const child = tracer.startSpan('child', { parent: root.context, kind: 'client' });
    child.end('it broke');
    root.end();
    root.end(); // a second end sends nothing more
    await tracer.flush();
    expect(received).toHaveLength(1);
    expect(received[0]!.path).toBe('/v1/traces');
    expect(received[0]!.type).toBe('application/json');
    const [rs] = received[0]!.body.resourceSpans;
    expect(rs!.resource).toEqual({
      attributes: [
        { key: 'service.name', value: { stringValue: 'svc' } },
        { key: 'service.version', value: { stringValue: '1.2.3' } },
      ],
    });
    const spans = rs!.scopeSpans[0]!.spans;
    expect(spans.map((s) => s.name)).toEqual(['child', 'root']);
    const [c, r] = spans as [Record<string, unknown>, Record<string, unknown>];
    expect(r.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(r.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(r.parentSpanId).toBeUndefined();
    expect([c.traceId, c.parentSpanId, c.kind, r.kind]).toEqual([r.traceId, r.spanId, 3, 2]);
    expect(c.status).toEqual({ code: 2, message: 'it broke' });
    expect(r.status).toEqual({ code: 0 });
    expect(r.attributes).toEqual([
      { key: 'n', value: { intValue: '3' } },
      { key: 'ok', value: { boolValue: true } },
      { key: 'r', value: { doubleValue: 0.5 } },
    ]);
    expect(BigInt(r.endTimeUnixNano as string) >= BigInt(r.startTimeUnixNano as string)).toBe(true);
  });

  it('sends a full batch at once, drops past the queue bound and says how many', async () => {
    const { url, received } = await collector();
    const errors: string[] = [];
    const exporter = new OtlpHttpExporter({
      url,
      serviceName: 'svc',
      maxBatch: 2,
      maxQueue: 3,
      intervalMs: 3_600_000,
      onError: (e) => errors.push(e.message),
    });
    const tracer = new Tracer(exporter);
    for (let i = 0; i < 2; i++) tracer.startSpan(`s${i}`).end();
    // The batch of two left without waiting for the (hour-long) interval.
    for (let i = 0; i < 100 && received.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(received.map((r) => r.body.resourceSpans[0]!.scopeSpans[0]!.spans.length)).toEqual([2]);
    // A queue of three that nothing empties before the flush: the fourth and fifth span are dropped.
    const held = new OtlpHttpExporter({
      url,
      serviceName: 'svc',
      maxBatch: 10,
      maxQueue: 3,
      intervalMs: 3_600_000,
      onError: (e) => errors.push(e.message),
    });
    const t2 = new Tracer(held);
    for (let i = 0; i < 5; i++) t2.startSpan(`q${i}`).end();
    await t2.flush();
    expect(received.at(-1)!.body.resourceSpans[0]!.scopeSpans[0]!.spans.map((s) => s.name)).toEqual([
      'q0',
      'q1',
      'q2',
    ]);
    expect(errors).toEqual(['OTLP exporter: 2 spans dropped, the queue was full']);
  });

  it('reports a collector that refuses or is not there; spans still end', async () => {
    const { url } = await collector(500);
    const errors: string[] = [];
    const tracer = new Tracer(
      new OtlpHttpExporter({ url, serviceName: 'svc', onError: (e) => errors.push(e.message) }),
    );
    tracer.startSpan('x').end();
    await tracer.flush();
    expect(errors).toEqual([
      `OTLP exporter: could not send 1 spans to ${url}: the collector answered 500 to 1 spans`,
    ]);
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;
    const gone = new Tracer(
      new OtlpHttpExporter({ url, serviceName: 'svc', onError: (e) => errors.push(e.message) }),
    );
    gone.startSpan('y').end();
    await gone.flush();
    expect(errors[1]).toMatch(new RegExp(`^OTLP exporter: could not send 1 spans to ${url}: `));
  });

  it('refuses a URL that is not http(s)', () => {
    expect(
      () => new OtlpHttpExporter({ url: 'ftp://collector.example/v1/traces', serviceName: 'svc' }),
    ).toThrow('OTLP exporter url: expected http: or https:, got ftp:');
  });
});
