/**
 * The rules of `admin` and `tracing` that relate several values or the environment (docs/operating.md): a bind
 * address other than loopback only with `allow_remote`, `allow_remote` only with a token, and the
 * variable `token_env` names must hold one.
 * @module
 */
import { isLoopbackHost } from '@xprotocol/wire/admin';
import type { _Collector } from './_collector.js';

type Obj = Record<string, unknown>;

function _obj(v: unknown): Obj | undefined {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : undefined;
}

/** Checks `admin` in the raw file `root`. */
export function _operateChecks(
  c: _Collector,
  root: Obj,
  env: Readonly<Record<string, string | undefined>>,
): void {
  _tracingChecks(c, _obj(root.tracing));
  const admin = _obj(root.admin);
  if (admin === undefined) return;
  const host = typeof admin.host === 'string' ? admin.host : '127.0.0.1';
  const remote = admin.allow_remote === true;
  if (!isLoopbackHost(host) && !remote) {
    c.error(
      ['admin', 'host'],
      `${host} is not a loopback address: the admin listener binds 127.0.0.1, ::1 or localhost unless admin.allow_remote is true (and then admin.token_env is required)`,
    );
  }
  const tokenEnv = typeof admin.token_env === 'string' ? admin.token_env : undefined;
  if (remote && tokenEnv === undefined) {
    c.error(
      ['admin', 'allow_remote'],
      'allow_remote needs admin.token_env: metrics reachable from other machines must ask for a bearer token',
    );
  }
  if (tokenEnv !== undefined && /^[A-Za-z_][A-Za-z0-9_]*$/.test(tokenEnv) && !env[tokenEnv]) {
    c.error(
      ['admin', 'token_env'],
      `environment variable ${tokenEnv} is ${env[tokenEnv] === undefined ? 'not set' : 'empty'}: it must hold the admin bearer token`,
    );
  }
}

/**
 * `tracing.endpoint` on a loopback host unless `allow_remote` (spans name tools and callers: they
 * leave the machine only when the operator says so), and then only over https://.
 */
function _tracingChecks(c: _Collector, tracing: Obj | undefined): void {
  if (tracing === undefined || typeof tracing.endpoint !== 'string' || !URL.canParse(tracing.endpoint))
    return;
  const url = new URL(tracing.endpoint);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isLoopbackHost(host)) return;
  if (tracing.allow_remote !== true) {
    c.error(
      ['tracing', 'endpoint'],
      `${url.hostname} is not a loopback address: spans go to a collector on 127.0.0.1, ::1 or localhost unless tracing.allow_remote is true`,
    );
  } else if (url.protocol !== 'https:') {
    c.error(
      ['tracing', 'endpoint'],
      `expected an https:// URL for a collector on another machine (${url.hostname}), got ${url.protocol}//`,
    );
  }
}
