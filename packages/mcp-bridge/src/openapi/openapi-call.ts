/**
 * Sending one built OpenAPI request and reading its answer as an MCP tool result. The address is
 * checked by the address policy: a server URL the document named (not the operator) is refused
 * when it is a private, loopback or metadata address the policy does not allow, and every host
 * name is resolved and pinned through the policy's lookup. Redirects are not followed, the call
 * is abandoned after the time limit, and the body is read with a cap while it streams. A JSON
 * answer becomes `structuredContent`; a 4xx or 5xx is an `isError` result naming the status.
 * @module
 */
import { isIP } from 'node:net';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { BridgeError } from '../errors.js';
import { readCappedBody } from '../outbound/capped-body.js';
import { _pinnedFetch } from '../upstream/pinned-fetch.js';
import type { OperationPlan } from './openapi-operations.js';
import type { BuiltRequest } from './openapi-request.js';

/** The most bytes of one answer read, unless the source says otherwise (4 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024;
/** The most characters of an error answer's body quoted in the result. */
const QUOTED_ERROR_CHARS = 2000;

/** A tool result, as MCP carries it. */
export interface OperationResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** Options of {@link sendOperation}. */
export interface SendOperationOptions {
  request: BuiltRequest;
  plan: OperationPlan;
  /** The policy every address is checked by (absent: none, for tests of this module only). */
  addressPolicy?: AddressPolicy;
  /** True when the base URL came from the document's `servers`, not from the operator's `base_url`. */
  learnedAddress: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

/** Sends the request and maps the answer; never rejects (every failure is an `isError` result). */
export async function sendOperation(options: SendOperationOptions): Promise<OperationResult> {
  const { request, plan } = options;
  const what = `${plan.method} ${plan.path}`;
  const host = request.url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(host) !== 0 || host === 'localhost';
  if (options.addressPolicy && options.learnedAddress && literal) {
    const decision = options.addressPolicy.checkUrl(request.url.origin);
    if (!decision.ok) return _error(`${what} not sent: the document's server ${decision.reason}`);
  }
  const fetcher = options.addressPolicy && !literal ? _pinnedFetch(options.addressPolicy.lookup) : fetch;
  let response: Response;
  try {
    response = await fetcher(request.url.href, {
      method: request.method,
      headers: request.headers,
      redirect: 'manual',
      signal: AbortSignal.timeout(options.timeoutMs),
      ...(request.body !== undefined && { body: request.body }),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    const name = (error as Error).name;
    const why =
      name === 'TimeoutError'
        ? `no answer within ${options.timeoutMs} ms`
        : (cause ?? (error as Error).message);
    return _error(`${what} failed: ${why}`);
  }
  let text: string;
  try {
    text =
      response.body === null
        ? ''
        : (
            await readCappedBody(response.body, {
              maxBytes: options.maxResponseBytes,
              what: `the answer to ${what}`,
              declaredLength: response.headers.get('content-length'),
            })
          ).toString('utf8');
  } catch (error) {
    if (error instanceof BridgeError) return _error(error.message);
    return _error(`${what}: the answer broke off: ${(error as Error).message}`);
  }
  return _result(response, text, plan, what);
}

function _result(response: Response, text: string, plan: OperationPlan, what: string): OperationResult {
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get('location');
    return _error(
      `${what} answered ${status}${location ? `, a redirect to ${location}` : ''} (not followed)`,
    );
  }
  if (response.status >= 400) {
    const quoted = text.length > QUOTED_ERROR_CHARS ? `${text.slice(0, QUOTED_ERROR_CHARS)}…` : text;
    return { ..._error(`${what} answered ${status}${quoted ? `: ${quoted}` : ''}`), status: response.status };
  }
  const type = (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  const json = type === 'application/json' || /^application\/[^/]+\+json$/.test(type);
  if (!json || text.length === 0) {
    if (plan.output !== 'none')
      return _error(
        `${what} answered ${status} with ${type || 'no content type'}, not the JSON its schema describes`,
      );
    return { content: [{ type: 'text', text: text || status }] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return _error(`${what} answered ${status} with JSON that does not parse: ${(error as Error).message}`);
  }
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const structured =
    plan.output === 'object' && isObject ? (value as Record<string, unknown>) : { result: value };
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function _error(message: string): OperationResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}
