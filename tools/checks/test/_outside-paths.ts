// Finds references to paths outside the repository in a tracked file's text: the sibling `shared`
// folder, absolute paths under the machine's work, home and temporary folders, and relative
// paths that climb above the repository root. A clone must hold everything its tests read.
import { posix } from 'node:path';

/** One reference to a path outside the repository. */
export interface OutsideReference {
  /** The file, relative to the repository root, `/`-separated. */
  file: string;
  /** 1-based line number. */
  line: number;
  /** The path as written. */
  path: string;
  /** Why it is refused. */
  reason: string;
}

/** A path allowed in spite of the rules, in the files that match `files`, and why. */
export interface AllowedPath {
  files: RegExp;
  path: RegExp;
  reason: string;
}

/**
 * The paths the absolute and climbing rules would refuse but that a clone does not need: example
 * values in documentation and pure-function tests, a reader's scratch folder, a path written
 * relative to another folder. None is opened by a test, bench or script. The shared-folder rule
 * has no exceptions.
 */
export const ALLOWED_PATHS: readonly AllowedPath[] = [
  {
    files: /^(apps|packages)\//,
    path: /^\/home\/(ada|me)\b/,
    reason:
      'the fictional users "ada" and "me" of examples and tests: a home folder handed to pure path functions or shown in a usage example, never opened',
  },
  {
    files: /^apps\/adapter\/test\/config-interpolate\.test\.ts$/,
    path: /^\/home\/adax$/,
    reason:
      'the expected result of interpolating the variable HOME directly followed by "x" for the fictional user "ada"',
  },
  {
    files: /^docs\/protocol\.md$/,
    path: /^\/tmp\/héllo\.txt/,
    reason:
      'the file name inside the worked examples of signed and sealed payloads: a string in an event, not a file',
  },
  {
    files: /^apps\/devserver\/README\.md$/,
    path: /^\/tmp\/(xprotocol-demo-wAXb3y(\/hello\.txt)?|dev\.key)$/,
    reason:
      'a sample transcript of the demo (whose folder comes from mkdtemp) and a usage example of keyFile',
  },
  {
    files: /^README\.md$/,
    path: /^\/tmp\/xp-packs(\/\*\.tgz)?$/,
    reason: "the scratch folder of the README's install-from-tarballs steps, made by the reader's own mkdir",
  },
  {
    files: /^scripts\/emit-cjs-entries\.mjs$/,
    path: /^\.\.\/\.\.\/scripts\/emit-cjs-entries\.mjs$/,
    reason:
      "its own command line as a package's build script writes it: relative to packages/<name> or apps/<name>, where it names this file",
  },
  {
    files:
      /^(README\.md|docs\/cli\.md|apps\/adapter\/README\.md|tools\/checks\/test\/_installed-doc(s|-plans)\.ts)$/,
    path: /^\/tmp\/hello\.txt$/,
    reason:
      'the file the reader writes for the `call` example: the wrapped server-filesystem serves FS_ROOT (default /tmp) by absolute path; the checks that run that example quote it and run it in a scratch folder instead',
  },
  {
    files: /^apps\/devserver\/src\/start-dev-server\.ts$/,
    path: /^\/tmp\/a\.key$/,
    reason: 'the keyFile argument of a TSDoc usage example',
  },
];

/** Files whose relative paths are not relative to their own folder, and why. */
export const RELATIVE_TO_ELSEWHERE: ReadonlyMap<string, string> = new Map([
  ['pnpm-lock.yaml', "pnpm's `link:` paths are relative to each importer's folder, not to the lockfile"],
]);

// An absolute path under the machine's work, home, root-home or temporary folder. The lookbehind
// keeps out `$HOME/tmp/`, `~/tmp/`, `https://host/home/` and the like.
const ABSOLUTE = /(?<![\w.~%$-])\/(?:work|root|home|tmp)\/[^\s'"`)\],;\\]*/g;
// A relative path that starts by climbing (`../`, `./../`); what follows up to a delimiter.
const CLIMBING = /(?<![\w./-])(?:\.\/)?(?:\.\.\/)+[^\s'"`)\],;\\]*/g;
// The shared folder beside the repository, from any depth.
const SIBLING_SHARED = /\.\.\/shared(?![\w-])/g;

/**
 * Every reference to a path outside the repository in `content`, the text of `file` (relative to
 * the repository root, `/`-separated). Relative paths are resolved against the file's folder, as
 * `new URL(path, import.meta.url)`, `resolve(import.meta.dirname, path)` and Markdown links do.
 */
export function findOutsideReferences(
  file: string,
  content: string,
  allowed: readonly AllowedPath[] = ALLOWED_PATHS,
): OutsideReference[] {
  const found: OutsideReference[] = [];
  const folder = posix.dirname(file);
  const checkRelative = !RELATIVE_TO_ELSEWHERE.has(file);
  content.split('\n').forEach((text, i) => {
    const line = i + 1;
    for (const m of text.matchAll(SIBLING_SHARED)) {
      found.push({ file, line, path: m[0], reason: 'names the shared folder beside the repository' });
    }
    for (const m of text.matchAll(ABSOLUTE)) {
      const path = m[0];
      if (allowed.some((a) => a.files.test(file) && a.path.test(path))) continue;
      found.push({ file, line, path, reason: 'an absolute path on this machine, outside any clone' });
    }
    if (!checkRelative) return;
    for (const m of text.matchAll(CLIMBING)) {
      const target = posix.normalize(posix.join(folder, m[0]));
      if (allowed.some((a) => a.files.test(file) && a.path.test(m[0]))) continue;
      if (target === '..' || target.startsWith('../')) {
        found.push({ file, line, path: m[0], reason: `climbs above the repository root (to ${target})` });
      }
    }
  });
  return found;
}

/** True when `bytes` look like a binary file (a NUL byte in the first 8 KiB) or are gzipped. */
export function isBinary(file: string, bytes: Uint8Array): boolean {
  if (file.endsWith('.gz')) return true;
  return bytes.subarray(0, 8192).includes(0);
}
