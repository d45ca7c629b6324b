/**
 * The HTTP request of one OpenAPI operation from a tool call's arguments: path parameters
 * percent-encoded one segment each (a `/` in a value is `%2F`, and a value that would make a
 * whole segment `.` or `..` is refused, so no argument moves the request to another path), query
 * parameters as form fields, header parameters as headers, the `body` argument as JSON, and the
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
  body?: string;
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
    if (parameter.in === 'query') {
      if (Array.isArray(value) && parameter.explode)
        for (const item of value) url.searchParams.append(parameter.name, _scalar(parameter.name, item));
      else url.searchParams.append(parameter.name, _joined(parameter.name, value));
    } else if (parameter.in === 'header') headers.set(parameter.name, _joined(parameter.name, value));
  }
  for (const scheme of plan.security) _authorize(scheme, options, url, headers);
  let body: string | undefined;
  if (plan.body && args.body !== undefined) {
    headers.set('content-type', plan.body.contentType);
    body = JSON.stringify(args.body);
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
