/**
 * The keys only an `openapi_sources` entry has (docs/config.md, "openapi_sources"): the document,
 * the operations to serve, where calls go (`base_url`, `server_variables`), the credentials per
 * security scheme (names of environment variables, never the secrets) and the answer cap. The
 * catalog keys it shares with `mcp_sources` (namespace, capabilities, overrides, rate limit,
 * quality, refresh, timeouts) are that schema's own, picked in `schema.ts`.
 * @module
 */
import { z } from 'zod';
import { phrased } from './_phrased.js';

const ENV_PHRASE = 'an environment variable name ([A-Za-z_][A-Za-z0-9_]*)';
const envName = () => phrased(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/), ENV_PHRASE);

const DOCUMENT_PHRASE = 'a file path or an https:// URL (http:// only on a loopback host)';

/** True for a document an entry may name: a path, or an http(s) URL (loopback for http is checked at start). */
function _isDocument(text: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return text.length > 0 && !/^~[^/\\]/.test(text);
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

const HTTP_PHRASE = 'an http:// or https:// URL without a user or password';
const baseUrl = () =>
  phrased(
    z.string().refine(
      (text) => {
        try {
          const url = new URL(text);
          return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password;
        } catch {
          return false;
        }
      },
      { error: `expected ${HTTP_PHRASE}` },
    ),
    HTTP_PHRASE,
  );

/** The credentials of one security scheme: exactly one of the three forms (cross-checked). */
const credentialSchema = z
  .strictObject({
    api_key_env: envName().describe(
      'apiKey scheme: the variable holding the key (sent in the header or query field the scheme names).',
    ),
    bearer_env: envName().describe(
      'http bearer, oauth2 or openIdConnect scheme: the variable holding the token (Authorization: Bearer).',
    ),
    username_env: envName().describe('http basic scheme: the variable holding the user name.'),
    password_env: envName().describe('http basic scheme: the variable holding the password.'),
    client_id: phrased(z.string().min(1), 'a client id').describe(
      'oauth2 scheme with a clientCredentials flow: the client id (with client_secret_env).',
    ),
    client_secret_env: envName().describe(
      'oauth2 scheme with a clientCredentials flow: the variable holding the client secret.',
    ),
    scope: phrased(z.string().min(1), 'a space-separated list of scopes').describe(
      'oauth2 client credentials: the scopes to ask for (default none).',
    ),
  })
  .partial()
  .describe('Credentials for one security scheme of the document, by environment variable.');

/** The keys of an `openapi_sources` entry beside the catalog keys of `mcp_sources`. */
export const _openApiKeys = {
  document: phrased(
    z.string().refine(_isDocument, { error: `expected ${DOCUMENT_PHRASE}` }),
    DOCUMENT_PHRASE,
  ).describe(
    'The OpenAPI 3.0 or 3.1 document (JSON or YAML): a file path (relative to this file) or an https URL.',
  ),
  operations: phrased(
    z.array(phrased(z.string().min(1), 'an operationId')).min(1),
    'a non-empty list of operationIds',
  )
    .optional()
    .describe('Serve only these operations (by operationId); every operation when absent.'),
  base_url: baseUrl()
    .optional()
    .describe(
      'Where calls go, instead of the document’s first server (then dialled as written, like any URL you name).',
    ),
  server_variables: phrased(
    z.record(z.string().min(1), phrased(z.union([z.string(), z.number()]), 'a string or number')),
    'a mapping of server variable names to values',
  )
    .default({})
    .describe('Values of the document’s server variables (each else its default).'),
  auth: phrased(z.record(z.string().min(1), credentialSchema), 'a mapping of security scheme names')
    .default({})
    .describe('Credentials by security scheme name; an operation whose schemes have none is refused.'),
  max_response_bytes: phrased(
    z
      .number()
      .int()
      .min(1024)
      .max(64 * 1024 * 1024),
    'an integer from 1024 to 67108864',
  )
    .default(4 * 1024 * 1024)
    .describe('Largest answer read from the service, in bytes; a larger one is an error result.'),
};
