// Traces across XProtocol (docs/operating.md, "Traces"; docs/protocol.md §10.12), against the
// built adapter bins, a real relay and the conformance fixture (the MCP SDK's server) as the
// wrapped server: an SDK client calls a tool on adapter A's face with a W3C traceparent in
// `_meta`; A seals the call to adapter B through the relay, B calls the server. Both adapters
// send their spans to an OTLP/HTTP collector written here (it decodes the JSON the exporter
// POSTs). One trace holds the face's span, A's client span, B's server span and B's upstream
// span, each the child of the one before; the server saw B's upstream span as its parent in
// `_meta.traceparent`; each adapter's audit line names its span; the relay's database never holds
// the trace id in the clear.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conformanceStdioBody } from './support/adapter-configs.js';
import { freePort, Processes } from './support/processes.js';

interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
}

const procs = new Processes();
const metaFile = join(procs.dir, 'meta.jsonl');
const relayDb = join(procs.dir, 'relay.db');
const received: ReceivedSpan[] = [];
const posts: { path: string | undefined; type: string | undefined }[] = [];
let collector: Server;
let client: Client;
let faceUrl: string;

/** The collector: POST /v1/traces, an OTLP/JSON ExportTraceServiceRequest, at most 4 MiB. */
async function startCollector(port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > 4 * 1024 * 1024) req.destroy();
      else chunks.push(chunk);
    });
    req.on('end', () => {
      posts.push({ path: req.url, type: req.headers['content-type'] });
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: {
          resource: { attributes: { key: string; value: { stringValue?: string } }[] };
          scopeSpans: {
            spans: (Omit<ReceivedSpan, 'service' | 'attributes'> & {
              attributes: { key: string; value: Record<string, unknown> }[];
            })[];
          }[];
        }[];
      };
      for (const rs of body.resourceSpans) {
        const service = rs.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue ?? '';
        for (const ss of rs.scopeSpans)
          for (const span of ss.spans)
            received.push({
              ...span,
              service,
              attributes: Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]])),
            });
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** Waits until `count` spans of trace `traceId` arrived (the exporters send at most a second after a span ends). */
async function spansOf(traceId: string, count: number): Promise<ReceivedSpan[]> {
  for (let i = 0; i < 300; i++) {
    const spans = received.filter((s) => s.traceId === traceId);
    if (spans.length >= count) return spans;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`expected ${count} spans of trace ${traceId}, got ${JSON.stringify(received, null, 1)}`);
}

const tracing = (port: number, service: string) => `tracing:
  endpoint: http://127.0.0.1:${port}/v1/traces
  service_name: ${service}
`;

beforeAll(async () => {
  const collectorPort = await freePort();
  collector = await startCollector(collectorPort);
  const { url: relayUrl } = await procs.relay(['--db', relayDb]);
  const a = await procs.keygen('a.key');
  const b = await procs.keygen('b.key');
  await procs.adapter(
    procs.file(
      'b.yml',
      `identity:
  key_file: ./b.key
relay:
  urls: [${relayUrl}]
mcp_sources:
  - name: conformance
${conformanceStdioBody()}
    env:
      XP_FIXTURE_META: "${metaFile}"
    xprotocol_namespace: com.test.conf
access:
  default: deny
  grants:
    - key: ${a.ed25519}
      capabilities: [com.test.conf.*]
${tracing(collectorPort, 'adapter-b')}audit:
  path: ./b-audit.log
state_database: ./b-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  const port = await freePort();
  await procs.adapter(
    procs.file(
      'a.yml',
      `identity:
  key_file: ./a.key
relay:
  urls: [${relayUrl}]
xprotocol_sources:
  - name: b
    key: ${b.ed25519}
    relay: ${relayUrl}
    mcp_tool_prefix: conf_
mcp_server:
  transport: streamable_http
  port: ${port}
${tracing(collectorPort, 'adapter-a')}audit:
  path: ./a-audit.log
state_database: ./a-state.db
logging:
  level: warn
  format: json
`,
    ),
  );
  faceUrl = `http://127.0.0.1:${port}/mcp`;
  client = new Client({ name: 'e2e-tracing', version: '0.0.0' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(faceUrl)));
}, 120_000);

afterAll(async () => {
  await client?.close();
  await procs.close();
  await new Promise((resolve) => collector?.close(resolve));
});

/** The audit log `name`'s lines. */
function auditLines(name: string): Record<string, unknown>[] {
  return readFileSync(join(procs.dir, name), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

/** What the server recorded of each tools/call: its name and `_meta`. */
function serverSaw(): { name: string; _meta: { traceparent?: string } | null }[] {
  return readFileSync(metaFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}

describe('one trace from an MCP client through A → relay → B → the MCP server', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  const clientSpan = '00f067aa0ba902b7';

  it('joins the client’s trace: face, XProtocol call, endpoint and upstream spans, each the child of the last', async () => {
    const result = await client.callTool({
      name: 'conf_test_simple_text',
      arguments: {},
      _meta: { traceparent: `00-${traceId}-${clientSpan}-01` },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);

    const spans = await spansOf(traceId, 4);
    expect(spans).toHaveLength(4);
    const byName = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(found, name).toHaveLength(1);
      return found[0]!;
    };
    const face = byName('tools/call conf_test_simple_text');
    const call = spans.find((s) => s.name.startsWith('xprotocol call '))!;
    const endpoint = spans.find((s) => s.name.startsWith('xprotocol ') && s !== call)!;
    const upstream = byName('upstream tools/call');
    // Who made each, what kind, and the chain of parents.
    expect([face.service, face.kind, face.parentSpanId]).toEqual(['adapter-a', 2, clientSpan]);
    expect([call.service, call.kind, call.parentSpanId]).toEqual(['adapter-a', 3, face.spanId]);
    expect([endpoint.service, endpoint.kind, endpoint.parentSpanId]).toEqual(['adapter-b', 2, call.spanId]);
    expect([upstream.service, upstream.kind, upstream.parentSpanId]).toEqual([
      'adapter-b',
      3,
      endpoint.spanId,
    ]);
    expect(call.name).toBe(`xprotocol call ${endpoint.attributes['xprotocol.kind']}`);
    expect(endpoint.attributes['xprotocol.kind']).toMatch(/^com\.test\.conf\./);
    for (const span of spans) expect(span.status.code ?? 0).toBe(0);
    expect(posts.every((p) => p.path === '/v1/traces' && p.type === 'application/json')).toBe(true);

    // The server got B's upstream span as its parent, in the MCP convention's `_meta.traceparent`.
    const saw = serverSaw().filter((line) => line.name === 'test_simple_text');
    expect(saw).toEqual([
      { name: 'test_simple_text', _meta: { traceparent: `00-${traceId}-${upstream.spanId}-01` } },
    ]);
    // Each adapter's audit line names its own span of the call: the audit joins the trace.
    expect(auditLines('a-audit.log').at(-1)).toMatchObject({
      path: 'face',
      verdict: 'ok',
      trace_id: `00-${traceId}-${face.spanId}-01`,
    });
    expect(auditLines('b-audit.log').at(-1)).toMatchObject({
      path: 'xprotocol',
      verdict: 'ok',
      trace_id: `00-${traceId}-${endpoint.spanId}-01`,
    });
  });

  it('starts a trace of its own for a client that sends none, still one trace across both adapters', async () => {
    const before = received.length;
    await client.callTool({ name: 'conf_test_simple_text', arguments: {} });
    let face: ReceivedSpan | undefined;
    for (let i = 0; i < 300 && !face; i++) {
      face = received.slice(before).find((s) => s.name === 'tools/call conf_test_simple_text');
      if (!face) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(face?.parentSpanId).toBeUndefined();
    const spans = await spansOf(face!.traceId, 4);
    expect(new Set(spans.map((s) => s.service))).toEqual(new Set(['adapter-a', 'adapter-b']));
    const upstream = spans.find((s) => s.name === 'upstream tools/call')!;
    expect(serverSaw().at(-1)).toEqual({
      name: 'test_simple_text',
      _meta: { traceparent: `00-${face!.traceId}-${upstream.spanId}-01` },
    });
  });

  it('joins the trace of an HTTP traceparent header when the call has no _meta one', async () => {
    const headerTrace = 'c0ffee00c0ffee00c0ffee00c0ffee00';
    const headerSpan = '1234567890abcdef';
    const viaHeader = new Client({ name: 'e2e-tracing-header', version: '0.0.0' }, { capabilities: {} });
    await viaHeader.connect(
      new StreamableHTTPClientTransport(new URL(faceUrl), {
        requestInit: { headers: { traceparent: `00-${headerTrace}-${headerSpan}-01` } },
      }),
    );
    try {
      await viaHeader.callTool({ name: 'conf_test_simple_text', arguments: {} });
      const spans = await spansOf(headerTrace, 4);
      expect(spans.find((s) => s.name === 'tools/call conf_test_simple_text')?.parentSpanId).toBe(headerSpan);
    } finally {
      await viaHeader.close();
    }
  });

  it('marks a failed call’s spans as errors', async () => {
    const before = received.length;
    const result = await client.callTool({ name: 'conf_test_error_handling', arguments: {} });
    expect(result.isError).toBe(true);
    let failed: ReceivedSpan[] = [];
    for (let i = 0; i < 300 && failed.length < 2; i++) {
      failed = received.slice(before).filter((s) => s.status.code === 2);
      if (failed.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(failed.map((s) => s.name)).toContain('tools/call conf_test_error_handling');
  });

  it('makes spans only of the tool calls an endpoint serves, not of the answers an adapter gets', () => {
    expect(received.filter((s) => s.name.endsWith('.result'))).toEqual([]);
    expect(
      received.filter((s) => s.service === 'adapter-a' && s.kind === 2).map((s) => s.name),
    ).not.toContainEqual(expect.stringMatching(/^xprotocol /));
  });

  it('never puts the trace id in the clear on the relay', () => {
    const stored = ['', '-wal']
      .map((suffix) => {
        try {
          return readFileSync(`${relayDb}${suffix}`).toString('latin1');
        } catch {
          return '';
        }
      })
      .join('');
    // The sealed requests are there, with their encrypted trace tag, but not the ids.
    expect(stored).toContain('"trace"');
    expect(stored).not.toContain(traceId);
  });
});
