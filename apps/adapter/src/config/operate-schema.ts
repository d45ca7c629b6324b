/**
 * The keys an operator runs the adapter with in production (docs/operating.md): `admin`, the
 * listener that serves Prometheus metrics, `audit`, the file of one JSON line per call, and
 * `tracing`, the OTLP/HTTP collector spans go to. All are off unless configured. The admin listener binds loopback: another address is refused
 * unless `allow_remote` is set, and then only with a token (checked in operate-checks.ts, which
 * sees the environment).
 * @module
 */
import { z } from 'zod';
import { phrased } from './_phrased.js';

const HOST_PHRASE = 'a host name or IP address (no scheme, no port)';
const ENV_PHRASE = 'an environment variable name ([A-Za-z_][A-Za-z0-9_]*)';

/** `admin`: the metrics listener. */
export const _adminSchema = z
  .strictObject({
    host: phrased(z.string().regex(/^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._:-]+)$/), HOST_PHRASE)
      .default('127.0.0.1')
      .describe(
        'Bind address of the admin listener (default 127.0.0.1; another than loopback needs allow_remote).',
      ),
    port: phrased(z.number().int().min(1).max(65535), 'a port number from 1 to 65535').describe(
      'Port of the admin listener (9464 is the usual metrics port).',
    ),
    token_env: phrased(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), ENV_PHRASE).describe(
      'Name of the environment variable holding the bearer token scrapers must send (never the face’s token).',
    ),
    allow_remote: phrased(z.boolean(), 'true or false')
      .default(false)
      .describe('Allow a bind address other than loopback (needs token_env).'),
  })
  .partial({ token_env: true })
  .describe(
    'The admin listener: GET /metrics in the Prometheus text format (docs/operating.md). Off when absent.',
  );

/** `audit`: the audit log. */
export const _auditSchema = z
  .strictObject({
    path: phrased(z.string().min(1), 'a file path').describe(
      'The audit log file (created with mode 0600, appended to).',
    ),
    max_bytes: phrased(
      z
        .number()
        .int()
        .min(1024)
        .max(2 ** 40),
      'an integer from 1024 to 1099511627776',
    )
      .default(100 * 1024 * 1024)
      .describe('Size past which the file is rotated, in bytes (default 104857600).'),
    keep: phrased(z.number().int().min(1).max(1000), 'an integer from 1 to 1000')
      .default(5)
      .describe('Rotated files kept (path.1 … path.<keep>; default 5).'),
    include_arguments: phrased(z.boolean(), 'true or false')
      .default(false)
      .describe('Also write the arguments themselves (default false: only their SHA-256).'),
  })
  .describe('The audit log: one JSON line per tool call (docs/operating.md). Off when absent.');

/** `tracing`: OpenTelemetry traces sent to an OTLP/HTTP collector. */
export const _tracingSchema = z
  .strictObject({
    endpoint: phrased(
      z.string().refine((s) => {
        if (!URL.canParse(s)) return false;
        const url = new URL(s);
        return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
      }),
      'an http:// or https:// URL without a user or password',
    ).describe(
      'The OTLP/HTTP traces URL of the collector, e.g. http://127.0.0.1:4318/v1/traces (loopback unless allow_remote).',
    ),
    service_name: phrased(z.string().min(1).max(256), 'a non-empty string of at most 256 characters')
      .default('xprotocol-adapter')
      .describe('The service.name of the spans (default xprotocol-adapter).'),
    allow_remote: phrased(z.boolean(), 'true or false')
      .default(false)
      .describe('Allow a collector that is not on a loopback address (then only over https://).'),
  })
  .describe(
    'Traces: a span of every tool call, sent to an OTLP/HTTP collector as JSON (docs/operating.md). Off when absent.',
  );
