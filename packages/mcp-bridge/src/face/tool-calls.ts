/**
 * A `tools/call` on the MCP face. The arguments are held to the depth and size limits before
 * anything walks them, then to the tool's schema; the call goes to a local source (directly, or
 * in gateway mode through the client's own session with the server) or is sealed to an XProtocol
 * endpoint and sent through the relays.
 *
 * Errors follow the channel rule of docs/design.md §8: arguments that do not match the schema, and
 * an endpoint's `SCHEMA_VIOLATION`, come back as a tool result with `isError: true` (the model can
 * correct itself); every other XProtocol error is a JSON-RPC error with the code of docs/design.md
 * §8 and the XProtocol code in `error.data.xp_code`.
 * @module
 */
import { ProtocolError, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { PublicIdentity } from '@xprotocol/crypto';
import type { McpToolTarget } from '@xprotocol/registry';
import {
  type ContractLike,
  checkJsonLimits,
  DEFAULT_ARGUMENT_LIMITS,
  type JsonLimits,
  type JsonObject,
  SchemaCompiler,
  xpErrorToMcp,
} from '@xprotocol/translate';
import { xpError } from '@xprotocol/wire';
import type { XpCaller } from '../caller/xp-caller.js';
import type { _AcrossSession, _XpBackChannel } from '../caller/xp-mcp-back-channel.js';
import { _toolCallErrorResult } from '../caller/xp-mcp-error.js';
import type { _GatewaySession } from '../gateway/gateway-session.js';
import { _leasedRequest } from '../gateway/leases.js';
import { _modernRequest } from '../gateway/modern-request.js';
import type { Span, Tracer } from '../observe/tracer.js';
import { type ArgumentCheck, compileArgumentValidator } from '../policy/argument-validator.js';
import { withAuthorizationAsker } from '../upstream/authorization-asker.js';
import { _confirmCall } from './approvals.js';
import type { _FaceCatalog } from './face-catalog.js';
import { _callerOf, type McpFaceOptions } from './face-options.js';
import type { _TrustRefusal } from './face-trust.js';
import { _describeTool, DESCRIBE_TOOL } from './listing-modes.js';
import { _insufficientScope } from './request-scopes.js';
import { SEARCH_TOOL } from './search-tool.js';
import { _faceAsker } from './url-authorization.js';

/** The client's own session with a gateway upstream, which a passthrough call goes through. */
interface _Through {
  session: _GatewaySession;
  params: Record<string, unknown>;
  ctx: ServerContext;
}

/**
 * The face server and request a call came in on (its session across XProtocol follows them), and
 * what its client may use: it calls, and `search_tools` finds, only tools whose capability that
 * accepts (every tool when absent).
 */
interface _From {
  server: Server;
  ctx: ServerContext;
  mayUse?: ((capability: string) => boolean) | undefined;
  /** The span of this call, when the face traces (face-trace.ts). */
  span?: Span | undefined;
}

/** Options of {@link _FaceToolCalls}. */
interface _FaceToolCallsOptions {
  options: McpFaceOptions;
  catalog: _FaceCatalog;
  /** The clients' MCP sessions across XProtocol (docs/protocol.md §10.5), made on first use. */
  sessionsAcross: () => _XpBackChannel;
}

/** The `tools/call` handling of one face, shared by its servers. */
export class _FaceToolCalls {
  readonly #o: McpFaceOptions;
  readonly #catalog: _FaceCatalog;
  readonly #sessionsAcross: () => _XpBackChannel;
  /** Compiled argument validators by tool name, with the contract they were compiled from. */
  readonly #validators = new Map<
    string,
    { contract: ContractLike; validate: (args: unknown) => ArgumentCheck }
  >();
  /** One compiler for every validator: a new one per tool cost 53 ms and 30 KiB (ajv's meta-schemas). */
  readonly #compiler = new SchemaCompiler();

  constructor(options: _FaceToolCallsOptions) {
    this.#o = options.options;
    this.#catalog = options.catalog;
    this.#sessionsAcross = options.sessionsAcross;
  }

  /**
   * Calls the face tool `name`: `search_tools`, a local source's tool, or an XProtocol endpoint's.
   * `through` is the client's session with the gateway upstreams; `from` the server and request
   * the call came in on.
   */
  async call(
    name: string,
    args: Record<string, unknown>,
    through?: _Through,
    from?: _From,
  ): Promise<Record<string, unknown>> {
    _checkArgumentLimits(args, this.#o.argumentLimits ?? DEFAULT_ARGUMENT_LIMITS);
    const mayUse = from?.mayUse;
    // Each revision's clients call the tools their server offers that revision (face-catalog.ts).
    const modern = from !== undefined && _modernRequest(from.ctx) !== undefined;
    if (name === SEARCH_TOOL && this.#catalog.searchEnabled())
      return this.#catalog.searchTools(args, mayUse && this.#catalog.visibleTo(mayUse), modern);
    if (name === DESCRIBE_TOOL && this.#catalog.describeEnabled())
      return _describeTool(this.#catalog.tools(mayUse && this.#catalog.visibleTo(mayUse), modern), args);
    const target =
      this.#catalog.resolveFor(name, modern) ??
      ((await this.#catalog.afterFailedFetch(name)) && this.#catalog.resolveFor(name, modern));
    if (!target) {
      // A source that lists nothing (its trust roots, a server that cannot be reached) says why:
      // its tools may be the ones meant.
      const why = [...this.#catalog.untrustedSources(), ...(await this.#unreachableSources(through))];
      throw new ProtocolError(-32602, `Unknown tool: ${name}${why.length > 0 ? ` (${why.join('; ')})` : ''}`);
    }
    // The HTTP face refused most such calls before (403); a tool learnt only now is checked here.
    const capability = this.#catalog.requiredCapability(name);
    if (mayUse && capability !== undefined && !mayUse(capability))
      throw _insufficientScope([capability], `the tool ${name}`);
    _refuseUntrusted(this.#catalog.trustRefusal(name));
    const refused = this.#schemaRefusal(modern ? `${name}\0modern` : name, target.contract, args);
    if (refused) return refused;
    if (target.type === 'mcp') {
      const local = this.#o.localSources?.find((l) => l.name === target.source);
      if (local?.approval?.(target.kind) === 'confirm') await _confirmCall(from, name, args);
      // An upstream that needs a new authorization asks this call's client (url-authorization.ts).
      const asker = from && _faceAsker(from.server, from.ctx);
      return withAuthorizationAsker(asker, () => this.#callLocal(target, args, through, modern));
    }
    return this.#callEndpoint(target, args, from);
  }

  /** The tool result refusing `args` that do not match the tool's schema; nothing when they do. */
  #schemaRefusal(
    name: string,
    contract: ContractLike,
    args: Record<string, unknown>,
  ): Record<string, unknown> | undefined {
    const check = this.#validator(name, contract)(args);
    if (check.ok) return undefined;
    return _asToolResult(
      xpErrorToMcp(
        xpError('SCHEMA_VIOLATION', check.message, {
          details: { errors: check.errors } as unknown as JsonObject,
        }),
      ),
    );
  }

  #validator(name: string, contract: ContractLike): (args: unknown) => ArgumentCheck {
    const cached = this.#validators.get(name);
    if (cached?.contract === contract) return cached.validate;
    const validate = compileArgumentValidator(contract.payload, this.#compiler);
    this.#validators.set(name, { contract, validate });
    return validate;
  }

  /**
   * Why each local source that cannot be reached lists nothing, one sentence each. A gateway
   * source that lists nothing with no reason known (its own session still connecting, or none)
   * is asked through the client's link to it (`through`): the link's failure carries the
   * server's own reason, within the connect timeout.
   */
  async #unreachableSources(through: _Through | undefined): Promise<string[]> {
    const reasons = await Promise.all(
      (this.#o.localSources ?? []).map(async (local) => {
        const known = local.unreachable?.();
        if (known !== undefined || !through || !local.gateway || local.contracts().length > 0) return known;
        return through.session.linkFailure(local.name);
      }),
    );
    return (this.#o.localSources ?? []).flatMap((local, index) => {
      const why = reasons[index];
      return why === undefined ? [] : [`MCP source ${local.name} serves no tools: ${why.split('\n')[0]}`];
    });
  }

  /** A local source's tool: through the client's own session with the server, or its `call`. */
  async #callLocal(
    target: McpToolTarget,
    args: Record<string, unknown>,
    through: _Through | undefined,
    modern: boolean,
  ): Promise<Record<string, unknown>> {
    const local = this.#o.localSources?.find((l) => l.name === target.source);
    if (!local) throw new ProtocolError(-32603, `source ${target.source} is not running`);
    const refused = local.checkArguments?.(target.kind, args, modern);
    if (refused !== undefined) {
      const result = _asToolResult(xpErrorToMcp(xpError('SCHEMA_VIOLATION', refused)));
      if (result) return result;
    }
    const toolName = local.gateway?.toolName(target.kind);
    if (through && toolName !== undefined) {
      // Passthrough: the client's own session with the server; its errors come back unchanged.
      return (await through.session.callTool(
        local.name,
        { ...through.params, name: toolName },
        through.ctx,
      )) as Record<string, unknown>;
    }
    try {
      return await local.call(target.kind, args);
    } catch (error) {
      throw new ProtocolError(-32603, (error as Error).message, { xp_code: 'UPSTREAM_ERROR' });
    }
  }

  /** An XProtocol endpoint's tool: sealed, sent through the relays, in the client's session there. */
  async #callEndpoint(
    target: McpToolTarget,
    args: Record<string, unknown>,
    from: _From | undefined,
  ): Promise<Record<string, unknown>> {
    const keys = this.#catalog.keys(target.source);
    if (!keys) {
      throw new ProtocolError(-32603, `XProtocol endpoint unavailable: ${target.source}`, {
        xp_code: 'ENDPOINT_UNAVAILABLE',
      });
    }
    // The call runs in the client's MCP session at the endpoint: the server's progress, log
    // messages and requests (sampling, elicitation) come back to this client.
    const call: _SealedCall = {
      caller: _callerOf(this.#o),
      keys,
      kind: target.kind,
      args,
      timeoutMs: this.#o.callTimeoutMs,
      modern: from !== undefined && _modernRequest(from.ctx) !== undefined,
    };
    const send = (across?: _AcrossSession, traceparent?: string) =>
      _sendSealed({ ...call, traceparent }, across);
    const what = _leasedRequest('tools/call', target.source, { name: target.kind });
    const sendTraced = _sendInSpan(this.#o.tracer, from?.span, target, send);
    return from
      ? this.#sessionsAcross().request(from.server, from.ctx, keys, sendTraced, what)
      : sendTraced();
  }
}

/** One call of an XProtocol endpoint's tool, ready to send. */
interface _SealedCall {
  caller: XpCaller;
  keys: PublicIdentity;
  kind: string;
  args: Record<string, unknown>;
  timeoutMs: number;
  /** The client speaks 2026-07-28 (an input-required result goes on as it is). */
  modern: boolean;
  /** The `traceparent` sent in the request's encrypted `trace` tag. */
  traceparent?: string | undefined;
}

/**
 * `send` in a client span under `parent` (the face's span of the call), whose `traceparent` the
 * sealed request carries to the endpoint (docs/protocol.md §10.12); `send` itself without a tracer.
 */
function _sendInSpan(
  tracer: Tracer | undefined,
  parent: Span | undefined,
  target: McpToolTarget,
  send: (across?: _AcrossSession, traceparent?: string) => Promise<Record<string, unknown>>,
): (across?: _AcrossSession) => Promise<Record<string, unknown>> {
  if (!tracer || !parent) return send;
  return async (across) => {
    const span = tracer.startSpan(`xprotocol call ${target.kind}`, {
      parent: parent.context,
      kind: 'client',
      attributes: { 'xprotocol.kind': target.kind, 'xprotocol.source': target.source },
    });
    try {
      const result = await send(across, span.traceparent);
      span.end(result.isError === true ? 'tool error' : undefined);
      return result;
    } catch (error) {
      span.end((error as Error).message);
      throw error;
    }
  };
}

/** Sends `call` (in the client's session `across`, when it has one) and makes its outcome MCP. */
async function _sendSealed(call: _SealedCall, across?: _AcrossSession): Promise<Record<string, unknown>> {
  const outcome = await call.caller.call({
    to: call.keys,
    kind: call.kind,
    payload: call.args,
    timeoutMs: call.timeoutMs,
    ...(across && { signal: across.signal }),
    ...(across?.mcp && { mcp: across.mcp.context, sent: across.mcp.sent }),
    ...(call.traceparent !== undefined && { traceparent: call.traceparent }),
  });
  if (outcome.ok) return _asCallToolResult(outcome.payload, call.modern);
  // The server's own JSON-RPC error (from the client's session there) comes back as it was.
  return _toolCallErrorResult(outcome.error);
}

/**
 * Refuses a call its source's trust roots do not allow (docs/security.md, "Trust roots"): a tool
 * the endpoint's chain does not grant is a refusal (`-32600`); an endpoint no root vouches for any
 * longer is unavailable (`-32603`). Nothing is sent either way.
 */
function _refuseUntrusted(refusal: _TrustRefusal | undefined): void {
  if (refusal === undefined) return;
  const granted = refusal.reason === 'not_granted';
  throw new ProtocolError(granted ? -32600 : -32603, refusal.message, {
    xp_code: granted ? 'AUTHORIZATION_INSUFFICIENT' : 'ENDPOINT_UNAVAILABLE',
    trust: refusal.reason,
  });
}

/**
 * Refuses arguments over the depth and size limits: checked before anything walks them
 * recursively (validator, serializer, upstream transport).
 */
function _checkArgumentLimits(args: Record<string, unknown>, limits: JsonLimits): void {
  const checked = checkJsonLimits(args, limits);
  if (!checked.ok) {
    throw new ProtocolError(-32602, checked.message, {
      xp_code: 'SCHEMA_VIOLATION',
      limit: checked.limit,
      max: checked.max,
      found: checked.found,
    });
  }
}

/** The tool result of an XProtocol error on the tool-result channel (docs/design.md §8); nothing on the other. */
function _asToolResult(face: ReturnType<typeof xpErrorToMcp>): Record<string, unknown> | undefined {
  return face.channel === 'tool_result' ? (face.result as unknown as Record<string, unknown>) : undefined;
}

/**
 * A native endpoint may answer with any JSON: wrap what is not a `CallToolResult` honestly. An
 * input-required result (a 2026-07-28 server's, for a 2026-07-28 client) goes on as it is.
 */
function _asCallToolResult(payload: unknown, modern = false): Record<string, unknown> {
  if (
    payload !== null &&
    typeof payload === 'object' &&
    (Array.isArray((payload as { content?: unknown }).content) ||
      (modern && (payload as { resultType?: unknown }).resultType === 'input_required'))
  ) {
    return payload as Record<string, unknown>;
  }
  const structured =
    payload !== null && typeof payload === 'object' && !Array.isArray(payload)
      ? { structuredContent: payload }
      : {};
  return { content: [{ type: 'text', text: JSON.stringify(payload) }], ...structured };
}
