/**
 * The operations of an OpenAPI document as MCP tools (docs/config.md, `openapi_sources`): one tool
 * per operation, in document order, or only the operations the source lists. The name is the
 * `operationId` with every character outside `[A-Za-z0-9_-]` turned into `_`, else `<method>_<path>`
 * the same way; the input schema is an object of the path, query and header parameters and, as
 * `body`, the JSON request body; the output schema is the first 2xx JSON response's (a schema that
 * is not an object is wrapped as `{ result }`); the annotations follow the method. An operation
 * that cannot be called faithfully is refused with the reason, never half-translated.
 * @module
 */
import { toJsonSchema } from './openapi-schema.js';

/** HTTP methods an OpenAPI path item may hold, in the order tools are listed. */
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Header parameters OpenAPI says to ignore: the caller sets these itself. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** The longest tool name made (longer ones are cut, a clash after that is refused). */
const MAX_NAME = 64;

/** One parameter as the request builder needs it. */
export interface PlannedParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  /** Query arrays: repeated keys (`true`, OpenAPI's default) or comma-joined. */
  explode: boolean;
  /**
   * How the value is serialized (docs/config.md, "openapi_sources"): `form` (query, the default),
   * `spaceDelimited` and `pipeDelimited` (query arrays), `deepObject` (query objects:
   * `name[key]=value`), `simple` (path and header).
   */
  style: 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject' | 'simple';
}

/** The query styles sent, and the kind of value each takes. */
const QUERY_STYLES: Readonly<Record<string, 'any' | 'array' | 'object'>> = {
  form: 'any',
  spaceDelimited: 'array',
  pipeDelimited: 'array',
  deepObject: 'object',
};

/** How to make the HTTP request of one operation. */
export interface OperationPlan {
  method: string;
  /** The path template, such as `/pet/{petId}`. */
  path: string;
  parameters: PlannedParameter[];
  /**
   * The request body (the `body` argument), if the operation takes one: JSON, or an object sent as
   * `application/x-www-form-urlencoded` fields (`form`) or `multipart/form-data` parts (`multipart`).
   */
  body?: { contentType: string; required: boolean; encoding: 'json' | 'form' | 'multipart' };
  /** Security scheme names sent together (the first requirement the source has credentials for). */
  security: string[];
  /** How a JSON answer becomes `structuredContent`: as it is, or wrapped as `{ result }`. */
  output: 'object' | 'wrapped' | 'none';
}

/** A translated operation. */
export interface OpenApiTool {
  /** The operationId, else `METHOD /path`. */
  operation: string;
  definition: {
    name: string;
    title?: string;
    description: string;
    inputSchema: Record<string, unknown>;
    outputSchema?: Record<string, unknown>;
    annotations: Record<string, boolean | string>;
  };
  plan: OperationPlan;
}

/** An operation that is not a tool, and why. */
export interface OpenApiRefusal {
  operation: string;
  reason: string;
}

/** What {@link translateOperations} made of a document. */
export interface OpenApiTranslation {
  tools: OpenApiTool[];
  refused: OpenApiRefusal[];
}

/** Options of {@link translateOperations}. */
export interface TranslateOperationsOptions {
  /** Only these operationIds (absent: every operation). */
  operations?: readonly string[];
  /** The security schemes the source has credentials for, by name. */
  credentials: ReadonlySet<string>;
}

/** Translates every operation of the dereferenced `api` (OpenAPI `version`). */
export function translateOperations(
  api: Record<string, unknown>,
  version: string,
  options: TranslateOperationsOptions,
): OpenApiTranslation {
  const tools: OpenApiTool[] = [];
  const refused: OpenApiRefusal[] = [];
  const names = new Map<string, string>();
  const wanted = options.operations && new Set(options.operations);
  for (const [path, item] of Object.entries((api.paths ?? {}) as Record<string, Record<string, unknown>>)) {
    for (const method of METHODS) {
      const operation = item?.[method] as Record<string, unknown> | undefined;
      if (!operation) continue;
      const id = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      const label = id ?? `${method.toUpperCase()} ${path}`;
      if (wanted && (id === undefined || !wanted.has(id))) continue;
      const result = _translate({ api, version, path, method, item, operation, label, options });
      if ('reason' in result) {
        refused.push({ operation: label, reason: result.reason });
        continue;
      }
      const clash = names.get(result.definition.name);
      if (clash !== undefined) {
        refused.push({
          operation: label,
          reason: `its tool name ${result.definition.name} is already the name of ${clash}`,
        });
        continue;
      }
      names.set(result.definition.name, label);
      tools.push(result);
    }
  }
  for (const id of options.operations ?? [])
    if (!tools.some((t) => t.operation === id) && !refused.some((r) => r.operation === id))
      refused.push({
        operation: id,
        reason: 'listed in operations, but the document has no such operationId',
      });
  return { tools, refused };
}

/** The tool name of an operation: its operationId, else method and path, in `[A-Za-z0-9_-]`. */
export function operationToolName(operationId: string | undefined, method: string, path: string): string {
  const raw = operationId ?? `${method.toLowerCase()}_${path}`;
  const name = raw
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/_+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (name || method.toLowerCase()).slice(0, MAX_NAME);
}

interface _Operation {
  api: Record<string, unknown>;
  version: string;
  path: string;
  method: string;
  item: Record<string, unknown>;
  operation: Record<string, unknown>;
  label: string;
  options: TranslateOperationsOptions;
}

function _translate(op: _Operation): OpenApiTool | { reason: string } {
  try {
    const security = _security(op);
    const properties: Record<string, unknown> = {};
    const required: string[] = [];
    const parameters = _parameters(op, properties, required);
    const body = _body(op, properties, required);
    const { outputSchema, output } = _output(op);
    const inputSchema: Record<string, unknown> = {
      type: 'object',
      properties,
      ...(required.length > 0 && { required }),
      additionalProperties: false,
    };
    const summary = typeof op.operation.summary === 'string' ? op.operation.summary.trim() : '';
    const detail = typeof op.operation.description === 'string' ? op.operation.description.trim() : '';
    const description =
      [summary, detail].filter((s) => s.length > 0).join('\n\n') || `${op.method.toUpperCase()} ${op.path}`;
    const name = operationToolName(op.operation.operationId as string | undefined, op.method, op.path);
    return {
      operation: op.label,
      definition: {
        name,
        ...(summary && { title: summary }),
        description,
        inputSchema,
        ...(outputSchema && { outputSchema }),
        annotations: _annotations(op.method, summary),
      },
      plan: {
        method: op.method.toUpperCase(),
        path: op.path,
        parameters,
        ...(body && { body }),
        security,
        output,
      },
    };
  } catch (error) {
    return { reason: (error as Error).message };
  }
}

/** What the method says about a call: GET and HEAD read, DELETE destroys, PUT and DELETE repeat safely. */
function _annotations(method: string, summary: string): Record<string, boolean | string> {
  const m = method.toLowerCase();
  const read = m === 'get' || m === 'head' || m === 'options';
  return {
    ...(summary && { title: summary }),
    readOnlyHint: read,
    ...(read && { destructiveHint: false }),
    ...(m === 'delete' && { destructiveHint: true }),
    ...(m === 'post' || m === 'patch' ? { idempotentHint: false } : !read && { idempotentHint: true }),
    ...(read && { idempotentHint: true }),
    openWorldHint: true,
  };
}

/** The first security requirement the source can meet, as scheme names; throws naming what is missing. */
function _security(op: _Operation): string[] {
  const requirements = (op.operation.security ?? op.api.security ?? []) as Record<string, unknown>[];
  if (requirements.length === 0) return [];
  for (const requirement of requirements) {
    const schemes = Object.keys(requirement);
    if (schemes.every((s) => op.options.credentials.has(s))) return schemes;
  }
  const alternatives = requirements.map((r) => Object.keys(r).join(' + ')).join(' or ');
  throw new Error(`needs credentials for the security scheme ${alternatives}; none are configured in auth`);
}

function _parameters(
  op: _Operation,
  properties: Record<string, unknown>,
  required: string[],
): PlannedParameter[] {
  // Operation parameters replace path-item ones of the same name and location.
  const merged = new Map<string, Record<string, unknown>>();
  for (const p of [
    ...((op.item.parameters ?? []) as unknown[]),
    ...((op.operation.parameters ?? []) as unknown[]),
  ]) {
    const param = p as Record<string, unknown>;
    merged.set(`${String(param.in)}\0${String(param.name)}`, param);
  }
  const planned: PlannedParameter[] = [];
  for (const param of merged.values()) {
    const name = String(param.name);
    const where = param.in as string;
    const isRequired = param.required === true || where === 'path';
    if (where === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) continue;
    if (where === 'cookie') {
      if (isRequired)
        throw new Error(`the required cookie parameter ${name} is not sent (cookies are not supported)`);
      continue;
    }
    if (param.schema === undefined)
      throw new Error(
        `the parameter ${name} is described by content, not a schema; only schemas are supported`,
      );
    const schema = toJsonSchema(param.schema, op.version, `parameter ${name}`) as Record<string, unknown>;
    const style = _style(where, name, param.style, schema);
    if (Object.hasOwn(properties, name))
      throw new Error(`the parameter name ${name} is used twice (in ${where} and another location)`);
    const described = typeof param.description === 'string' ? { description: param.description } : {};
    properties[name] = { ...described, ...schema };
    if (isRequired) required.push(name);
    planned.push({
      name,
      in: where as PlannedParameter['in'],
      required: isRequired,
      // OpenAPI's default: explode for form, not for the other styles.
      explode: param.explode === undefined ? style === 'form' : param.explode === true,
      style,
    });
  }
  for (const match of op.path.matchAll(/\{([^}]+)\}/g))
    if (!planned.some((p) => p.in === 'path' && p.name === match[1]))
      throw new Error(`the path names {${match[1]}} but no path parameter describes it`);
  return planned;
}

/**
 * The style a parameter is sent with, checked against its location and schema; throws naming what
 * is not supported. Path and header parameters are `simple` scalars or lists; a query parameter
 * may be an object only as `form` (each property a field) or `deepObject`.
 */
function _style(
  where: string,
  name: string,
  declared: unknown,
  schema: Record<string, unknown>,
): PlannedParameter['style'] {
  const object = _isObjectSchema(schema);
  if (where !== 'query') {
    if (declared !== undefined && declared !== 'simple')
      throw new Error(
        `the ${where} parameter ${name} has style ${String(declared)}; only simple is supported`,
      );
    if (object)
      throw new Error(
        `the ${where} parameter ${name} is an object; only scalars and lists of scalars are sent`,
      );
    return 'simple';
  }
  const style = typeof declared === 'string' ? declared : 'form';
  const takes = QUERY_STYLES[style];
  if (takes === undefined)
    throw new Error(
      `the query parameter ${name} has style ${style}; only ${Object.keys(QUERY_STYLES).join(', ')} are supported`,
    );
  const array = schema.type === 'array';
  if ((takes === 'array' && !array) || (takes === 'object' && !object))
    throw new Error(
      `the query parameter ${name} has style ${style}, which OpenAPI defines for ${takes}s only`,
    );
  return style as PlannedParameter['style'];
}

function _body(
  op: _Operation,
  properties: Record<string, unknown>,
  required: string[],
): OperationPlan['body'] | undefined {
  const body = op.operation.requestBody as
    | { content?: Record<string, { schema?: unknown }>; required?: boolean }
    | undefined;
  if (!body) return undefined;
  const types = Object.keys(body.content ?? {});
  // JSON first; else a form, whose fields are the properties of an object.
  const json = types.find((t) => _isJson(t));
  const form = types.find((t) => _bare(t) === 'application/x-www-form-urlencoded');
  const multipart = types.find((t) => _bare(t) === 'multipart/form-data');
  const contentType = json ?? form ?? multipart;
  if (contentType === undefined) {
    if (types.length === 0) return undefined;
    throw new Error(
      `the request body is ${types.join(', ')}; only JSON, application/x-www-form-urlencoded and multipart/form-data bodies are sent`,
    );
  }
  if (Object.hasOwn(properties, 'body'))
    throw new Error('a parameter is named body, the name of the request body');
  const schema = body.content?.[contentType]?.schema;
  const converted = schema === undefined ? {} : toJsonSchema(schema, op.version, 'the request body');
  const encoding = contentType === json ? 'json' : contentType === form ? 'form' : 'multipart';
  if (encoding !== 'json' && !_isObjectSchema(converted as Record<string, unknown>))
    throw new Error(
      `the request body is ${contentType} without an object schema; its fields cannot be named`,
    );
  properties.body = converted;
  if (body.required === true) required.push('body');
  return { contentType, required: body.required === true, encoding };
}

function _bare(mediaType: string): string {
  return mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
}

function _output(op: _Operation): {
  outputSchema?: Record<string, unknown>;
  output: OperationPlan['output'];
} {
  const responses = (op.operation.responses ?? {}) as Record<
    string,
    { content?: Record<string, { schema?: unknown }> }
  >;
  const success = Object.keys(responses)
    .filter((code) => /^2(\d\d|XX)$/i.test(code))
    .sort();
  const first = success[0];
  if (first === undefined) return { output: 'none' };
  const content = responses[first]?.content ?? {};
  const json = Object.keys(content).find((t) => _isJson(t));
  const readable = Object.keys(content).filter((t) => _isJson(t) || /^text\//i.test(t));
  if (Object.keys(content).length > 0 && readable.length === 0)
    throw new Error(
      `the ${first} answer is ${Object.keys(content).join(', ')}; only JSON and text answers are read`,
    );
  const schema = json === undefined ? undefined : content[json]?.schema;
  if (schema === undefined) return { output: 'none' };
  const converted = toJsonSchema(schema, op.version, `the ${first} response`) as Record<string, unknown>;
  if (_isObjectSchema(converted) && converted.type === 'object')
    return { outputSchema: converted, output: 'object' };
  return {
    outputSchema: { type: 'object', properties: { result: converted }, required: ['result'] },
    output: 'wrapped',
  };
}

function _isJson(mediaType: string): boolean {
  const bare = mediaType.split(';')[0]?.trim().toLowerCase() ?? '';
  return bare === 'application/json' || /^application\/[^/]+\+json$/.test(bare);
}

function _isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (schema.type === undefined && schema.properties !== undefined);
}
