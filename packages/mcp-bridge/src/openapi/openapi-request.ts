/**
 * The HTTP request of one OpenAPI operation from a tool call's arguments: path parameters
 * percent-encoded one segment each (a `/` in a value is `%2F`, and a value that would make a
 * whole segment `.` or `..` is refused, so no argument moves the request to another path), query
 * parameters by their style (`form`, `spaceDelimited`, `pipeDelimited`, `deepObject`), header
 * parameters as headers, the `body` argument as JSON, form fields or multipart parts, and the
 * credentials of the operation's security schemes. Nothing else is sent: no cookie, no header of
 * the MCP client, no token the client holds.
 * @module
 */
import type { ClientCredentials } from './openapi-oauth.js';
import type { OperationPlan } from './openapi-operations.js';

/** A credential for one security scheme, read from the environment (a secret: never logged). */
export type OpenApiCredential =
  | { type: 'api_key'; value: string }
  | { type: 'bearer'; token: string }
  | { type: 'basic'; username: string; password: string }
  | ClientCredentials;

/** A security scheme as the document defines it (`components.securitySchemes`). */
export interface SecuritySchemeObject {
  type?: string;
  in?: string;
  name?: string;
  scheme?: string;
  flows?: { clientCredentials?: { tokenUrl?: string } };
}

/** The request to send. */
export interface BuiltRequest {
  url: URL;
  method: string;
  headers: Headers;
  /** JSON text, form fields, or multipart parts (fetch writes the content type and boundary of the last two). */
  body?: string | URLSearchParams | FormData;
}

/** Options of {@link buildRequest}. */
export interface BuildRequestOptions {
  /** The service's base URL (the server URL, variables filled in); its path prefixes every operation's. */
  baseUrl: string;
  plan: OperationPlan;
  args: Record<string, unknown>;
  schemes: Readonly<Record<string, SecuritySchemeObject>>;
  credentials: Readonly<Record<string, OpenApiCredential>>;
}

/** Builds the request of `options.plan` with `options.args`; throws an `Error` saying which argument is unusable. */
export function buildRequest(options: BuildRequestOptions): BuiltRequest {
  const { plan, args } = options;
  const path = plan.path.replace(/\{([^}]+)\}/g, (_whole, name: string) => _pathValue(name, args[name]));
  for (const segment of path.split('/'))
    if (/^(\.|%2e){1,2}$/i.test(segment))
      throw new Error(
        `a path parameter makes the segment ${JSON.stringify(segment)}, which would leave ${plan.path}`,
      );
  const base = new URL(options.baseUrl);
  const url = new URL(base.origin);
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${path}`;
  const headers = new Headers({ accept: 'application/json, */*;q=0.5' });
  for (const parameter of plan.parameters) {
    const value = args[parameter.name];
    if (value === undefined || value === null) continue;
    if (parameter.in === 'query') _query(url.searchParams, parameter, value);
    else if (parameter.in === 'header') headers.set(parameter.name, _joined(parameter.name, value));
  }
  for (const scheme of plan.security) _authorize(scheme, options, url, headers);
  let body: BuiltRequest['body'];
  if (plan.body && args.body !== undefined) {
    if (plan.body.encoding === 'json') {
      headers.set('content-type', plan.body.contentType);
      body = JSON.stringify(args.body);
    } else body = _formBody(plan.body.encoding, args.body);
  }
  return { url, method: plan.method, headers, ...(body !== undefined && { body }) };
}

/** Puts the credential of `scheme` where the scheme says: a header, a query field, or `Authorization`. */
function _authorize(scheme: string, options: BuildRequestOptions, url: URL, headers: Headers): void {
  const definition = options.schemes[scheme];
  const credential = options.credentials[scheme];
  if (!definition || !credential) throw new Error(`no credentials for the security scheme ${scheme}`);
  if (credential.type === 'api_key') {
    if (definition.in === 'query') url.searchParams.set(definition.name ?? '', credential.value);
    else headers.set(definition.name ?? '', credential.value);
  } else if (credential.type === 'bearer') headers.set('authorization', `Bearer ${credential.token}`);
  else if (credential.type === 'client_credentials')
    throw new Error(
      `internal: the token of the security scheme ${scheme} was not fetched before the request`,
    );
  else
    headers.set(
      'authorization',
      `Basic ${Buffer.from(`${credential.username}:${credential.password}`).toString('base64')}`,
    );
}

function _pathValue(name: string, value: unknown): string {
  if (value === undefined || value === null) throw new Error(`the path parameter ${name} is missing`);
  return Array.isArray(value)
    ? value.map((item) => encodeURIComponent(_scalar(name, item))).join(',')
    : encodeURIComponent(_scalar(name, value));
}

function _joined(name: string, value: unknown): string {
  return Array.isArray(value) ? value.map((item) => _scalar(name, item)).join(',') : _scalar(name, value);
}

function _scalar(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new Error(
    `the parameter ${name} must be a string, number or boolean (or a list of them), got ${typeof value}`,
  );
}

const DELIMITERS = { form: ',', spaceDelimited: ' ', pipeDelimited: '|' } as const;

/** Appends one query parameter as its style says (OpenAPI 3.1, "Style Examples"). */
function _query(
  search: URLSearchParams,
  parameter: OperationPlan['parameters'][number],
  value: unknown,
): void {
  const { name, style, explode } = parameter;
  if (style === 'deepObject' || (style === 'form' && _isRecord(value))) {
    if (!_isRecord(value)) throw new Error(`the parameter ${name} must be an object`);
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined || item === null) continue;
      if (style === 'deepObject') search.append(`${name}[${key}]`, _scalar(`${name}.${key}`, item));
      else if (explode) search.append(key, _joined(`${name}.${key}`, item));
    }
    if (style === 'form' && !explode)
      search.append(
        name,
        Object.entries(value)
          .filter(([, item]) => item !== undefined && item !== null)
          .flatMap(([key, item]) => [key, _scalar(`${name}.${key}`, item)])
          .join(','),
      );
    return;
  }
  if (Array.isArray(value) && explode) for (const item of value) search.append(name, _scalar(name, item));
  else if (Array.isArray(value))
    search.append(
      name,
      value.map((item) => _scalar(name, item)).join(DELIMITERS[style as keyof typeof DELIMITERS] ?? ','),
    );
  else search.append(name, _scalar(name, value));
}

/**
 * The `body` argument as form fields (a list repeats its field) or multipart parts: a scalar or a
 * list of scalars as text parts, an object as a part of `application/json` (OpenAPI's default for
 * an object property of a multipart body).
 */
function _formBody(encoding: 'form' | 'multipart', body: unknown): URLSearchParams | FormData {
  if (!_isRecord(body))
    throw new Error(
      `the body must be an object of form fields, got ${Array.isArray(body) ? 'an array' : typeof body}`,
    );
  const fields = encoding === 'form' ? new URLSearchParams() : new FormData();
  for (const [key, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    if (fields instanceof FormData && _isRecord(value)) {
      fields.append(key, new Blob([JSON.stringify(value)], { type: 'application/json' }));
      continue;
    }
    for (const item of Array.isArray(value) ? value : [value])
      fields.append(key, _scalar(`body.${key}`, item));
  }
  return fields;
}

function _isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
