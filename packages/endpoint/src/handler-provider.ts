/**
 * The in-process handlers of a native endpoint behind the endpoint's `ToolProvider` seam: the
 * pipeline hands a call that passed every check to the tool's handler, bounded by the call's time;
 * the value it returns becomes an MCP tool result (checked against the tool's output schema first),
 * and what it throws becomes an error the pipeline answers with `xp.error`.
 * @module
 */
import {
  BridgeError,
  type BridgeLogger,
  compileArgumentValidator,
  type ToolProvider,
  type UpstreamCallResult,
  type UpstreamRequestOptions,
} from '@xprotocol/mcp-bridge';
import type { JsonSchema, SchemaCompiler } from '@xprotocol/translate';
import type { NativeTool } from './tool-definition.js';

/** A tool with its compiled output check. */
interface _Served {
  tool: NativeTool;
  checkOutput: ReturnType<typeof compileArgumentValidator> | undefined;
}

/** Runs the tools of one native endpoint in this process. */
export class HandlerProvider implements ToolProvider {
  readonly #tools = new Map<string, _Served>();
  readonly #logger: BridgeLogger;

  constructor(tools: readonly NativeTool[], compiler: SchemaCompiler, logger: BridgeLogger) {
    this.#logger = logger;
    for (const tool of tools) {
      const checkOutput =
        tool.outputSchema === undefined
          ? undefined
          : compileArgumentValidator(tool.outputSchema as JsonSchema, compiler);
      this.#tools.set(tool.name, { tool, checkOutput });
    }
  }

  /** Runs the handler of `name`; rejects when it throws, runs out of time or breaks its output schema. */
  async callTool(
    name: string,
    args: Record<string, unknown>,
    options: UpstreamRequestOptions,
  ): Promise<UpstreamCallResult> {
    const served = this.#tools.get(name);
    if (!served) throw new Error(`no tool named "${name}" is served here`);
    let value: unknown;
    try {
      value = await _bounded(served.tool, args, options);
    } catch (error) {
      this.#logger.warn({ tool: name, error: (error as Error).message }, 'a tool handler failed');
      throw error;
    }
    return _toolResult(served, value);
  }

  /** Only tools are served: every other MCP request is refused with the reason. */
  async request(method: string): Promise<Record<string, unknown>> {
    throw new Error(`this native endpoint serves tools only; ${method} is not supported`);
  }
}

/**
 * The handler's value, run with a signal that aborts when the call's time is up or the pipeline
 * cancels it; past that time the call fails as a timeout, whatever the handler does after.
 */
async function _bounded(
  tool: NativeTool,
  args: Record<string, unknown>,
  options: UpstreamRequestOptions,
): Promise<unknown> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new BridgeError(
        'UPSTREAM_TIMEOUT',
        `tool "${tool.name}" did not finish within ${options.timeoutMs} ms`,
      );
      controller.abort(error);
      reject(error);
    }, options.timeoutMs);
  });
  try {
    // A handler that throws synchronously is a failed call like one whose promise rejects.
    return await Promise.race([
      Promise.resolve().then(() => tool.handler(args, { signal: controller.signal })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/**
 * The MCP `CallToolResult` of a handler's value: an object is also the structured content, every
 * value is its JSON text (a string as it is). A value that breaks the output schema, or that is
 * not JSON, is refused: the caller gets an error, never a result its contract does not promise.
 */
function _toolResult(served: _Served, value: unknown): UpstreamCallResult {
  const { tool, checkOutput } = served;
  if (checkOutput) {
    const verdict = checkOutput(value);
    if (!verdict.ok)
      throw new Error(
        `the result of tool "${tool.name}" does not match its output schema (${verdict.message}); it was not sent`,
      );
  }
  let text: string | undefined;
  try {
    text = typeof value === 'string' ? value : JSON.stringify(value);
  } catch (error) {
    throw new Error(`the result of tool "${tool.name}" is not JSON: ${(error as Error).message}`);
  }
  const structured = value !== null && typeof value === 'object' && !Array.isArray(value);
  return {
    content: text === undefined ? [] : [{ type: 'text', text }],
    ...(structured && { structuredContent: value as Record<string, unknown> }),
  };
}
