/**
 * `admin`, `audit` and `tracing` (docs/operating.md) from the validated file to {@link AdapterConfig}: the
 * admin token read from the variable `token_env` names, the audit path expanded like every path.
 * @module
 */
import { expandConfigPath } from './paths.js';
import type { ConfigFile } from './schema.js';
import type { AdapterConfig } from './types.js';

/** The `admin` and `audit` of the normalized configuration (each absent when the file has none). */
export function _normalizeOperate(
  file: ConfigFile,
  env: Readonly<Record<string, string | undefined>>,
  where: { homeDir: string; baseDir: string },
): Pick<AdapterConfig, 'admin' | 'audit' | 'tracing'> {
  return {
    ...(file.admin && {
      admin: {
        host: file.admin.host.replace(/^\[(.*)\]$/, '$1'),
        port: file.admin.port,
        token: file.admin.token_env === undefined ? undefined : env[file.admin.token_env],
      },
    }),
    ...(file.audit && {
      audit: {
        path: expandConfigPath(file.audit.path, where),
        maxBytes: file.audit.max_bytes,
        keep: file.audit.keep,
        includeArguments: file.audit.include_arguments,
      },
    }),
    ...(file.tracing && {
      tracing: { url: file.tracing.endpoint, serviceName: file.tracing.service_name },
    }),
  };
}
