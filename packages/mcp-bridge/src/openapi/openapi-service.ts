/**
 * One `openapi_sources` entry as an MCP server inside the adapter's process: `tools/list` answers
 * the document's operations as tools (openapi-operations.ts) and `tools/call` sends the HTTP
 * request (openapi-request.ts, openapi-call.ts). The adapter speaks to it through an in-memory
 * transport ({@link OpenApiService.connect}), as it speaks to any wrapped server, so its tools
 * get what every wrapped tool gets: contracts, grammars, pins, grants, rate limits, both faces.
 * The document is read again when a listing comes more than {@link RELOAD_AFTER_MS} after the
 * last read, so a schema refresh sees a changed document.
 * @module
 */
import { InMemoryTransport, ProtocolError, Server, type Transport } from '@modelcontextprotocol/server';
import type { AddressPolicy } from '@xprotocol/relay-client';
import { BridgeError } from '../errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES, type OperationResult, sendOperation } from './openapi-call.js';
import { loadOpenApiDocument } from './openapi-document.js';
import { OpenApiTokens } from './openapi-oauth.js';
import { type OpenApiTranslation, translateOperations } from './openapi-operations.js';
import { buildRequest, type OpenApiCredential, type SecuritySchemeObject } from './openapi-request.js';
import { resolveBaseUrl } from './openapi-servers.js';

/** A listing later than this after the last read reads the document again. */
const RELOAD_AFTER_MS = 10_000;

/** Options of {@link OpenApiService}. */
export interface OpenApiServiceOptions {
  /** The source's name, for messages. */
  name: string;
  /** An absolute file path or an `https://` URL. */
  document: string;
  /** Only these operationIds (absent: every operation). */
  operations?: readonly string[];
  /** The operator's base URL; absent: the document's first server. */
  baseUrl?: string;
  /** Values of the first server's variables (each else its default). */
  serverVariables?: Readonly<Record<string, string>>;
  /** Credentials by security scheme name (secrets: never logged). */
  credentials?: Readonly<Record<string, OpenApiCredential>>;
  /** Every address dialled is checked by it (docs/security.md, "Outbound addresses"). */
  addressPolicy?: AddressPolicy;
  /** How long one call may take, in ms; default 30 s. */
  timeoutMs?: number;
  /** The most bytes of one answer read; default 4 MiB. */
  maxResponseBytes?: number;
  /** The most bytes of the document read; default 8 MiB. */
  maxDocumentBytes?: number;
}

/** What one read of the document gave. */
export interface OpenApiSnapshot extends OpenApiTranslation {
  version: string;
  baseUrl: string;
  /** True when `baseUrl` came from the document, not from the operator. */
  learnedAddress: boolean;
  schemes: Record<string, SecuritySchemeObject>;
}

/** An OpenAPI service served as an in-process MCP server. */
export class OpenApiService {
  readonly #o: OpenApiServiceOptions;
  #snapshot: Promise<OpenApiSnapshot> | undefined;
  readonly #tokens: OpenApiTokens;
  #readAt = 0;

  constructor(options: OpenApiServiceOptions) {
    this.#o = options;
    this.#tokens = new OpenApiTokens({
      source: options.name,
      ...(options.addressPolicy && { addressPolicy: options.addressPolicy }),
    });
  }

  /**
   * The document's tools and refusals, read now when `fresh` or when the last read is older than
   * {@link RELOAD_AFTER_MS} (or failed). Rejects with a `BridgeError` saying what is wrong.
   */
  snapshot(fresh = false): Promise<OpenApiSnapshot> {
    if (fresh || this.#snapshot === undefined || Date.now() - this.#readAt > RELOAD_AFTER_MS) {
      this.#readAt = Date.now();
      const reading = this.#read();
      this.#snapshot = reading;
      reading.catch(() => {
        if (this.#snapshot === reading) this.#snapshot = undefined;
      });
    }
    return this.#snapshot;
  }

  /** Calls the tool `name` with `args`; an unusable argument or a failed request is an `isError` result. */
  async call(name: string, args: Record<string, unknown>): Promise<OperationResult> {
    const snapshot = await (this.#snapshot ?? this.snapshot());
    const tool = snapshot.tools.find((t) => t.definition.name === name);
    if (!tool) throw new ProtocolError(-32602, `${this.#o.name} has no tool ${JSON.stringify(name)}`);
    let request: ReturnType<typeof buildRequest>;
    try {
      request = buildRequest({
        baseUrl: snapshot.baseUrl,
        plan: tool.plan,
        args,
        schemes: snapshot.schemes,
        credentials: await this.#credentialsFor(tool.plan.security, snapshot),
      });
    } catch (error) {
      return {
        content: [{ type: 'text', text: `${name} not sent: ${(error as Error).message}` }],
        isError: true,
      };
    }
    const result = await sendOperation({
      request,
      plan: tool.plan,
      learnedAddress: snapshot.learnedAddress,
      timeoutMs: this.#o.timeoutMs ?? 30_000,
      maxResponseBytes: this.#o.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      ...(this.#o.addressPolicy && { addressPolicy: this.#o.addressPolicy }),
    });
    const { status, ...answer } = result;
    // A refused token is not used again: the next call asks for a new one.
    if (status === 401) this.#tokens.forget(tool.plan.security);
    return answer as OperationResult;
  }

  /** The credentials of `schemes`, client credentials turned into their current Bearer token. */
  async #credentialsFor(
    schemes: readonly string[],
    snapshot: OpenApiSnapshot,
  ): Promise<Record<string, OpenApiCredential>> {
    const configured = this.#o.credentials ?? {};
    const out: Record<string, OpenApiCredential> = {};
    for (const scheme of schemes) {
      const credential = configured[scheme];
      if (credential?.type !== 'client_credentials') {
        if (credential) out[scheme] = credential;
        continue;
      }
      const tokenUrl = snapshot.schemes[scheme]?.flows?.clientCredentials?.tokenUrl ?? '';
      const token = await this.#tokens.token(scheme, tokenUrl, snapshot.baseUrl, credential);
      out[scheme] = { type: 'bearer', token };
    }
    return out;
  }

  /** A new MCP session with this service: the client's end of an in-memory transport. */
  connect(): Transport {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = new Server({ name: this.#o.name, version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler('tools/list', async () => {
      const snapshot = await this.snapshot();
      return { tools: snapshot.tools.map((t) => t.definition) } as never;
    });
    server.setRequestHandler('tools/call', async (request) => {
      const { name, arguments: args = {} } = request.params;
      return (await this.call(name, args as Record<string, unknown>)) as never;
    });
    void server.connect(serverSide);
    return clientSide;
  }

  async #read(): Promise<OpenApiSnapshot> {
    const o = this.#o;
    const { version, api } = await loadOpenApiDocument({
      document: o.document,
      ...(o.addressPolicy && { addressPolicy: o.addressPolicy }),
      ...(o.maxDocumentBytes !== undefined && { maxBytes: o.maxDocumentBytes }),
    });
    const schemes = ((api.components as { securitySchemes?: unknown } | undefined)?.securitySchemes ??
      {}) as Record<string, SecuritySchemeObject>;
    _checkCredentials(o.name, schemes, o.credentials ?? {});
    const base = resolveBaseUrl(api, {
      document: o.document,
      ...(o.baseUrl !== undefined && { baseUrl: o.baseUrl }),
      ...(o.serverVariables && { serverVariables: o.serverVariables }),
    });
    const translation = translateOperations(api, version, {
      ...(o.operations && { operations: o.operations }),
      credentials: new Set(Object.keys(o.credentials ?? {})),
    });
    return { version, ...base, schemes, ...translation };
  }
}

/** Each configured credential must name a scheme of the document, of a type it fits. */
function _checkCredentials(
  source: string,
  schemes: Readonly<Record<string, SecuritySchemeObject>>,
  credentials: Readonly<Record<string, OpenApiCredential>>,
): void {
  const defined = Object.keys(schemes);
  for (const [name, credential] of Object.entries(credentials)) {
    const scheme = schemes[name];
    if (!scheme)
      throw new BridgeError(
        'INVALID_OPTIONS',
        `${source}: auth names the security scheme ${name}, which the document does not define (it defines ${defined.join(', ') || 'none'})`,
      );
    const fits =
      credential.type === 'api_key'
        ? scheme.type === 'apiKey' && (scheme.in === 'header' || scheme.in === 'query')
        : credential.type === 'basic'
          ? scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'basic'
          : credential.type === 'client_credentials'
            ? scheme.type === 'oauth2' && typeof scheme.flows?.clientCredentials?.tokenUrl === 'string'
            : (scheme.type === 'http' && scheme.scheme?.toLowerCase() === 'bearer') ||
              scheme.type === 'oauth2' ||
              scheme.type === 'openIdConnect';
    if (!fits)
      throw new BridgeError(
        'INVALID_OPTIONS',
        `${source}: auth.${name} gives ${_given(credential)}, but the scheme is ${_describe(scheme)}`,
      );
  }
}

function _given(credential: OpenApiCredential): string {
  return credential.type === 'api_key'
    ? 'an API key (api_key_env)'
    : credential.type === 'bearer'
      ? 'a bearer token (bearer_env)'
      : credential.type === 'client_credentials'
        ? 'OAuth client credentials (client_id, client_secret_env)'
        : 'a user and password (username_env, password_env)';
}

function _describe(scheme: SecuritySchemeObject): string {
  if (scheme.type === 'apiKey')
    return `an API key in ${scheme.in}${scheme.in === 'cookie' ? ' (cookies are not sent)' : ''}`;
  if (scheme.type === 'http') return `HTTP ${scheme.scheme}`;
  if (scheme.type === 'oauth2' && !scheme.flows?.clientCredentials)
    return 'oauth2 without a clientCredentials flow';
  return String(scheme.type);
}
