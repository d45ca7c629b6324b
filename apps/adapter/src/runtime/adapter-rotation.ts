/**
 * The rotation the adapter discloses (docs/protocol.md §11.8; docs/config.md, `identity`): the
 * rotation file `identity.rotated_from` names, loaded when the adapter starts (and by `validate`)
 * and held to the adapter — valid (shape, id, the old key's and the new key's signatures) and
 * naming the adapter's own key as the successor. The adapter carries it as `rotated_from` in its
 * announce and well-known document. Every failure is a configuration error that names the file,
 * why, and what to do.
 * @module
 */

import { type Rotation, verifyRotation } from '@xprotocol/crypto';
import { nodeSignatures } from '@xprotocol/crypto/node';
import { type AdapterConfig, ConfigError } from '../config/index.js';
import { _readIdentityJson } from './identity-json-file.js';
import type { AdapterLogger } from './logger.js';

const ROTATE = 'xprotocol-adapter rotate';

/**
 * Loads and checks the rotation file of `config.identity.rotated_from` for the adapter whose key
 * is `ownKey`; `undefined` when none is configured. `ownKey` `undefined` (`validate` before the
 * key file exists) skips the one check that needs it. Throws {@link ConfigError}
 * `CONFIG_INVALID` saying what is wrong and what to do.
 */
export function _loadAdapterRotation(
  config: Pick<AdapterConfig, 'file' | 'identity'>,
  ownKey: string | undefined,
): Rotation | undefined {
  const { rotatedFrom: file, keyFile } = config.identity;
  if (file === undefined) return undefined;
  const fail = (message: string): never => {
    throw new ConfigError('CONFIG_INVALID', [
      { file: config.file, line: 0, column: 0, path: 'identity.rotated_from', message },
    ]);
  };
  const value = _readIdentityJson(
    file,
    {
      writtenBy: `the rotation file that ${ROTATE} --output wrote`,
      described: 'a rotation as rotate writes it',
    },
    fail,
  );
  const verdict = verifyRotation(value, nodeSignatures);
  if (!verdict.ok) return fail(`${file}: not a valid rotation (${verdict.code}): ${verdict.message}`);
  const { rotation } = verdict;
  if (ownKey !== undefined && rotation.new_key !== ownKey) {
    fail(
      `${file}: the rotation names ${rotation.new_key} as the successor of ${rotation.old_key}, expected this adapter's key ${ownKey} (identity.key_file ${keyFile}): make the rotation with ${ROTATE} --new-key ${keyFile}`,
    );
  }
  return rotation;
}

/**
 * The rotation of `identity.rotated_from` for the starting adapter (a configuration error
 * otherwise), logged with the old key and the end of its grace period.
 */
export function _checkedRotation(
  config: AdapterConfig,
  ownKey: string,
  logger: AdapterLogger,
): Rotation | undefined {
  const rotation = _loadAdapterRotation(config, ownKey);
  if (rotation === undefined) return undefined;
  const { old_key: oldKey, grace_until: graceUntil } = rotation;
  logger.info(
    { rotation: config.identity.rotatedFrom, oldKey, graceUntil },
    `announcing this key as the successor of ${oldKey} (rotation ${rotation.id.slice(0, 8)}…); keep the old key's adapter running until ${new Date(graceUntil * 1000).toISOString()} for the callers that have not seen the rotation`,
  );
  return rotation;
}
