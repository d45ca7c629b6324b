/**
 * A collector for the traced peers: an OTLP/HTTP endpoint on loopback that reads each POSTed
 * ExportTraceServiceRequest (JSON), counts its spans and answers `200 {}`, as a collector does.
 * The count proves the traced peer really sent its spans.
 * @module
 */
import { createServer, type Server } from 'node:http';
import { freePort } from './processes.js';

/** A running sink: its traces URL, the spans it received, and how to stop it. */
export interface OtlpSink {
  readonly url: string;
  spans(): number;
  close(): Promise<void>;
}

/** Starts a sink on a free loopback port. */
export async function startOtlpSink(): Promise<OtlpSink> {
  let spans = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: { scopeSpans?: { spans?: unknown[] }[] }[];
      };
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? []) spans += ss.spans?.length ?? 0;
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const port = await freePort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans: () => spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
