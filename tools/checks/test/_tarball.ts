// Reads an npm tarball (gzip'd ustar) in memory: the file names and contents, no tar binary needed.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The regular files of a tarball, by path inside it (npm puts everything under `package/`). */
export function readTarball(file: string): Map<string, Buffer> {
  const data = gunzipSync(readFileSync(file));
  const files = new Map<string, Buffer>();
  let offset = 0;
  while (offset + 512 <= data.length) {
    const header = data.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // end-of-archive blocks
    const name = _field(header, 0, 100);
    const prefix = _field(header, 345, 155);
    const size = Number.parseInt(_field(header, 124, 12) || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + 512;
    if (type === '0' || type === '\0') {
      files.set(prefix ? `${prefix}/${name}` : name, data.subarray(start, start + size));
    }
    offset = start + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** A NUL-terminated ASCII field of a tar header. */
function _field(header: Buffer, start: number, length: number): string {
  const raw = header.subarray(start, start + length);
  const end = raw.indexOf(0);
  return raw
    .subarray(0, end === -1 ? length : end)
    .toString('utf8')
    .trim();
}
