/**
 * Reading one OpenAPI document (docs/config.md, `openapi_sources`): from a file, or from an
 * `https` URL (plain `http` only on a loopback host) fetched through the address policy with a cap
 * on its size and a time limit, redirects not followed. The text (JSON or YAML) is then validated
 * and dereferenced by `@apidevtools/swagger-parser` with every resolver off: only `$ref`s inside
 * the document are followed, so reading a document never makes the parser open another file or
 * dial another address. A recursive schema is left as a `$ref` (the operation that uses it is
 * refused later, with that reason).
 * @module
 */
import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { AddressPolicy } from '@xprotocol/relay-client';
import type { OpenAPI } from 'openapi-types';
import { parse as parseYaml } from 'yaml';
import { BridgeError } from '../errors.js';
import { readCappedBody } from '../outbound/capped-body.js';
import { _pinnedFetch } from '../upstream/pinned-fetch.js';

/** The most bytes of a document read, unless the source says otherwise (8 MiB). */
export const DEFAULT_MAX_DOCUMENT_BYTES = 8 * 1024 * 1024;

/** Options of {@link loadOpenApiDocument}. */
export interface OpenApiDocumentOptions {
  /** An absolute file path, or an `https://` URL (`http://` on a loopback host only). */
  document: string;
  /** Host names of a document URL are resolved and pinned through it. */
  addressPolicy?: AddressPolicy;
  /** The most bytes read; default {@link DEFAULT_MAX_DOCUMENT_BYTES}. */
  maxBytes?: number;
  /** How long the fetch of a URL may take, in ms; default 30 s. */
  timeoutMs?: number;
}

/** A validated, dereferenced OpenAPI 3.0 or 3.1 document. */
export interface OpenApiDocument {
  /** `3.0.x` or `3.1.x`, as the document says. */
  version: string;
  /** The document, its internal `$ref`s replaced by what they point to (recursive ones kept). */
  api: Record<string, unknown>;
}

/**
 * Reads, parses, validates and dereferences `options.document`. Rejects with a `BridgeError`
 * (`INVALID_OPTIONS`) naming the document and what is wrong with it: unreadable, too large, not
 * JSON or YAML, not OpenAPI 3.0 or 3.1 (Swagger 2.0 is refused), or invalid by the parser.
 */
export async function loadOpenApiDocument(options: OpenApiDocumentOptions): Promise<OpenApiDocument> {
  const where = `OpenAPI document ${options.document}`;
  const text = await _readText(options, where);
  let parsed: unknown;
  try {
    parsed = parseYaml(text, { maxAliasCount: 100 });
  } catch (error) {
    throw new BridgeError(
      'INVALID_OPTIONS',
      `${where} is neither JSON nor YAML: ${(error as Error).message}`,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new BridgeError('INVALID_OPTIONS', `${where}: expected a mapping at the top, got ${_kind(parsed)}`);
  const version = (parsed as { openapi?: unknown }).openapi;
  if (typeof version !== 'string' || !/^3\.[01]\.\d+$/.test(version)) {
    const swagger = (parsed as { swagger?: unknown }).swagger;
    const got = swagger !== undefined ? `Swagger ${String(swagger)}` : `openapi: ${JSON.stringify(version)}`;
    throw new BridgeError('INVALID_OPTIONS', `${where}: expected an OpenAPI 3.0 or 3.1 document, got ${got}`);
  }
  let api: OpenAPI.Document;
  try {
    api = await SwaggerParser.validate(parsed as OpenAPI.Document, {
      // Only `$ref`s inside the document: the parser opens no file and dials no address.
      resolve: { external: false, file: false, http: false },
      dereference: { circular: 'ignore' },
    });
  } catch (error) {
    throw new BridgeError(
      'INVALID_OPTIONS',
      `${where} is not valid OpenAPI ${version}: ${_firstLine(error)}`,
    );
  }
  return { version, api: api as unknown as Record<string, unknown> };
}

/** The document's text: a file read whole, or a URL fetched with the cap, the policy and the time limit. */
async function _readText(options: OpenApiDocumentOptions, where: string): Promise<string> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  if (!/^https?:\/\//i.test(options.document)) {
    let bytes: Buffer;
    try {
      bytes = await readFile(options.document);
    } catch (error) {
      throw new BridgeError('INVALID_OPTIONS', `${where} cannot be read: ${(error as Error).message}`);
    }
    if (bytes.byteLength > maxBytes)
      throw new BridgeError(
        'RESPONSE_TOO_LARGE',
        `${where} is ${bytes.byteLength} bytes; at most ${maxBytes} are read`,
      );
    return bytes.toString('utf8');
  }
  const url = new URL(options.document);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (url.protocol === 'http:' && !_isLoopback(host))
    throw new BridgeError('INVALID_OPTIONS', `${where}: expected https (http only on a loopback host)`);
  // The operator named this URL: an IP literal or localhost is dialled as written, a host name
  // is resolved through the policy (docs/security.md, "Outbound addresses").
  const pinned = options.addressPolicy && isIP(host) === 0 && host !== 'localhost';
  const fetcher = pinned ? _pinnedFetch(options.addressPolicy!.lookup) : fetch;
  let response: Response;
  try {
    response = await fetcher(url.href, {
      redirect: 'manual',
      headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' },
      signal: AbortSignal.timeout(options.timeoutMs ?? 30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `${where} cannot be fetched: ${cause ?? (error as Error).message}`,
    );
  }
  if (response.status < 200 || response.status > 299) {
    await response.body?.cancel().catch(() => {});
    const location = response.headers.get('location');
    throw new BridgeError(
      'UPSTREAM_UNAVAILABLE',
      `${where} answered HTTP ${response.status}${location ? ` (a redirect to ${location}, not followed)` : ''}`,
    );
  }
  if (response.body === null) return '';
  const bytes = await readCappedBody(response.body, {
    maxBytes,
    what: where,
    declaredLength: response.headers.get('content-length'),
  });
  return bytes.toString('utf8');
}

function _isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function _kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;
}

function _firstLine(error: unknown): string {
  return String((error as Error).message ?? error)
    .split('\n')
    .slice(0, 3)
    .join(' ');
}
