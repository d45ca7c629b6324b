/**
 * The verb vocabulary: which words are verbs in tool names and descriptions, which verb class each
 * one belongs to, and which intent verbs an annotation lists for it. These tables are public
 * documentation (README "Verb tables"): capability inference in `@xprotocol/translate` and the
 * semantic annotations of this package read the same tables (docs/design.md §4, §7).
 * @module
 */

/**
 * The seven verb classes of docs/design.md §4, §7: `read` (read, get, fetch, …), `list` (list,
 * search, find, query, …), `write` (create, write, add, insert, …), `update` (update, edit, modify,
 * patch, …), `delete` (delete, remove, destroy, …), `execute` (execute, run, invoke, call, …),
 * `admin` (admin, manage, configure, …).
 */
export type VerbClass = 'read' | 'list' | 'write' | 'update' | 'delete' | 'execute' | 'admin';

/** The capability classes of docs/design.md §4 (`{namespace}.{class}`); `list` and `update` fold in. */
export type CapabilityClass = 'read' | 'write' | 'delete' | 'execute' | 'admin';

/** Every verb class, in table order. */
export const VERB_CLASSES: readonly VerbClass[] = Object.freeze([
  'read',
  'list',
  'write',
  'update',
  'delete',
  'execute',
  'admin',
]);

/**
 * The intent verbs of each class as docs/design.md §7 tabulates them (`admin`, absent from that
 * table, follows §4.3's `admin_*, manage_*, configure_*`).
 */
export const CLASS_INTENT_VERBS: Readonly<Record<VerbClass, readonly string[]>> = Object.freeze({
  read: Object.freeze(['read', 'get', 'fetch', 'retrieve']),
  list: Object.freeze(['list', 'search', 'find', 'query']),
  write: Object.freeze(['create', 'write', 'add', 'insert']),
  update: Object.freeze(['update', 'edit', 'modify', 'patch']),
  delete: Object.freeze(['delete', 'remove', 'destroy']),
  execute: Object.freeze(['execute', 'run', 'invoke', 'call']),
  admin: Object.freeze(['admin', 'manage', 'configure']),
});

/**
 * A group of verbs with one meaning. `intentVerbs` is what an annotation lists for any verb of
 * the group (after the verb itself); `verbs` are all the words recognised as this group's verb.
 */
export interface VerbGroup {
  /** The class the group belongs to. */
  readonly verbClass: VerbClass;
  /** The intent vocabulary an annotation lists for a verb of this group. */
  readonly intentVerbs: readonly string[];
  /** Every word recognised as a verb of this group (base form, lowercase). */
  readonly verbs: readonly string[];
}

function _group(verbClass: VerbClass, intentVerbs: string[], more: string[]): VerbGroup {
  const verbs = [...intentVerbs];
  for (const v of more) if (!verbs.includes(v)) verbs.push(v);
  return Object.freeze({
    verbClass,
    intentVerbs: Object.freeze(intentVerbs),
    verbs: Object.freeze(verbs),
  });
}

/**
 * The verb table. The first group of each class carries the seed's own vocabulary; the others
 * extend it with the verbs real MCP servers use (the 672 tools of the dev corpus: browser
 * automation, cloud control planes, search and scraping services, source hosting, chat).
 * Classification is by what the call does to the server's data, which is what capability
 * inference needs: capturing a screenshot or validating input reads; sending a message writes;
 * navigating a browser, starting a process or generating an image executes.
 */
export const VERB_GROUPS: readonly VerbGroup[] = Object.freeze([
  // ── read ──────────────────────────────────────────────────────────────────────────────
  _group(
    'read',
    ['read', 'get', 'fetch', 'retrieve'],
    ['load', 'obtain', 'download', 'export', 'dump', 'pull', 'receive', 'access', 'open', 'return'],
  ),
  _group('read', ['show', 'view', 'display', 'describe'], ['preview', 'peek', 'print', 'explain', 'see']),
  _group(
    'read',
    ['inspect', 'analyze', 'check', 'examine'],
    [
      'analyse',
      'audit',
      'diagnose',
      'review',
      'investigate',
      'debug',
      'profile',
      'measure',
      'verify',
      'validate',
      'lint',
      'assess',
      'compare',
      'diff',
      'count',
      'estimate',
      'test',
      'ping',
    ],
  ),
  _group('read', ['capture', 'screenshot', 'snapshot'], ['take', 'record', 'screencast', 'trace', 'observe']),
  _group('read', ['extract', 'scrape', 'crawl', 'parse'], ['harvest', 'collect']),
  _group(
    'read',
    ['resolve', 'lookup', 'identify', 'locate'],
    ['look', 'geocode', 'detect', 'learn', 'understand', 'determine'],
  ),
  _group('read', ['monitor', 'watch', 'poll', 'track'], ['listen', 'follow', 'tail']),
  // ── list / search ─────────────────────────────────────────────────────────────────────
  _group(
    'list',
    ['list', 'search', 'find', 'query'],
    [
      'enumerate',
      'browse',
      'discover',
      'filter',
      'scan',
      'ask',
      'seek',
      'match',
      'research',
      'explore',
      'recommend',
      'suggest',
      'map',
      'index',
      'grep',
      'sort',
    ],
  ),
  // ── write ─────────────────────────────────────────────────────────────────────────────
  _group(
    'write',
    ['create', 'write', 'add', 'insert'],
    [
      'new',
      'make',
      'put',
      'save',
      'store',
      'append',
      'compose',
      'draft',
      'copy',
      'clone',
      'duplicate',
      'fork',
      'upsert',
      'createorupdate',
      'build',
      'log',
      'attach',
      'bookmark',
    ],
  ),
  _group(
    'write',
    ['send', 'post', 'publish', 'submit'],
    [
      'reply',
      'comment',
      'share',
      'notify',
      'email',
      'message',
      'tweet',
      'broadcast',
      'forward',
      'invite',
      'give',
      'react',
      'respond',
      'request',
      'emit',
    ],
  ),
  _group('write', ['upload', 'import', 'push'], ['ingest', 'commit']),
  // ── update ────────────────────────────────────────────────────────────────────────────
  _group(
    'update',
    ['update', 'edit', 'modify', 'patch'],
    [
      'change',
      'set',
      'rename',
      'move',
      'replace',
      'merge',
      'toggle',
      'reset',
      'sync',
      'synchronize',
      'apply',
      'adjust',
      'alter',
      'amend',
      'fix',
      'revise',
      'assign',
      'unassign',
      'label',
      'tag',
      'untag',
      'mark',
      'lock',
      'unlock',
      'reopen',
      'approve',
      'reject',
      'archive',
      'unarchive',
      'restore',
      'rollback',
      'revert',
      'promote',
      'increment',
      'decrement',
      'reorder',
      'rotate',
      'star',
      'unstar',
      'pin',
      'unpin',
      'transfer',
      'refresh',
      'format',
      'rewrite',
    ],
  ),
  // ── delete ────────────────────────────────────────────────────────────────────────────
  _group(
    'delete',
    ['delete', 'remove', 'destroy'],
    [
      'erase',
      'drop',
      'purge',
      'clear',
      'wipe',
      'unset',
      'detach',
      'unlink',
      'discard',
      'trash',
      'prune',
      'truncate',
      'evict',
      'flush',
      'unsubscribe',
    ],
  ),
  // ── execute ───────────────────────────────────────────────────────────────────────────
  _group(
    'execute',
    ['execute', 'run', 'invoke', 'call'],
    [
      'exec',
      'trigger',
      'launch',
      'perform',
      'process',
      'eval',
      'evaluate',
      'act',
      'interact',
      'handle',
      'dispatch',
      'fire',
      'schedule',
      'retry',
      'simulate',
      'emulate',
      'echo',
      'orchestrate',
    ],
  ),
  _group(
    'execute',
    ['start', 'stop', 'restart', 'cancel'],
    [
      'begin',
      'end',
      'finish',
      'complete',
      'pause',
      'resume',
      'kill',
      'terminate',
      'abort',
      'halt',
      'close',
      'connect',
      'disconnect',
      'login',
      'logout',
      'reboot',
      'shutdown',
      'suspend',
      'deploy',
      'redeploy',
      'scale',
      'wait',
      'sleep',
      'init',
      'initialize',
      'spawn',
      'subscribe',
    ],
  ),
  _group(
    'execute',
    ['navigate', 'click', 'type', 'fill'],
    [
      'go',
      'goto',
      'visit',
      'hover',
      'press',
      'drag',
      'scroll',
      'select',
      'focus',
      'tap',
      'swipe',
      'resize',
      'reload',
    ],
  ),
  _group(
    'execute',
    ['generate', 'convert', 'transform', 'compute'],
    [
      'calculate',
      'summarize',
      'summarise',
      'translate',
      'synthesize',
      'render',
      'encode',
      'decode',
      'compress',
      'decompress',
      'gzip',
      'zip',
      'unzip',
      'hash',
      'sign',
      'encrypt',
      'decrypt',
      'embed',
      'predict',
      'infer',
      'classify',
      'recognize',
      'transcribe',
      'draw',
      'plot',
      'chat',
      'design',
      'plan',
    ],
  ),
  // ── admin ─────────────────────────────────────────────────────────────────────────────
  _group(
    'admin',
    ['admin', 'manage', 'configure'],
    [
      'administer',
      'config',
      'setup',
      'install',
      'uninstall',
      'enable',
      'disable',
      'grant',
      'revoke',
      'authorize',
      'authenticate',
      'register',
      'unregister',
      'provision',
      'deprovision',
      'permit',
      'allow',
      'deny',
      'ban',
      'unban',
      'block',
      'unblock',
      'restrict',
      'migrate',
      'upgrade',
      'downgrade',
      'backup',
    ],
  ),
]);

/**
 * Verbs that are as often nouns in tool names (`monitor_metrics_query`, `get_pull_request`,
 * `deploy_app_logs_get`, `kusto_sample`). The parser picks one only when the name has no other
 * verb: a strong verb elsewhere in the name wins over a weak one, even in first position.
 */
export const WEAK_VERBS: ReadonlySet<string> = new Set([
  'access',
  'admin',
  'audit',
  'backup',
  'block',
  'build',
  'chat',
  'comment',
  'commit',
  'compute',
  'crawl',
  'config',
  'design',
  'deploy',
  'drop',
  'echo',
  'email',
  'end',
  'export',
  'filter',
  'format',
  'go',
  'handle',
  'import',
  'index',
  'label',
  'lock',
  'log',
  'map',
  'mark',
  'match',
  'message',
  'monitor',
  'new',
  'open',
  'plan',
  'process',
  'profile',
  'pull',
  'record',
  'request',
  'research',
  'review',
  'scale',
  'screencast',
  'screenshot',
  'select',
  'snapshot',
  'sort',
  'star',
  'store',
  'tag',
  'take',
  'test',
  'trace',
  'track',
  'type',
  'watch',
]);

const _BY_VERB: ReadonlyMap<string, VerbGroup> = (() => {
  const map = new Map<string, VerbGroup>();
  for (const group of VERB_GROUPS) {
    for (const verb of group.verbs) if (!map.has(verb)) map.set(verb, group);
  }
  return map;
})();

/**
 * The group a word belongs to as a verb (base form, lowercase), or `undefined`.
 * @example
 * verbGroupOf('navigate')?.verbClass; // 'execute'
 */
export function verbGroupOf(word: string): VerbGroup | undefined {
  return _BY_VERB.get(word);
}

/** The verb class of a word (base form, lowercase), or `null` when it is not in the table. */
export function verbClassOf(word: string): VerbClass | null {
  return _BY_VERB.get(word)?.verbClass ?? null;
}

/**
 * The capability class a verb class grants under docs/design.md §4: list/search count as `read`,
 * update counts as `write`; `null` (no verb) stays `null` so the caller can fall back to
 * `readOnlyHint`/`destructiveHint` and then `access`.
 * @example
 * capabilityClassOf('list'); // 'read'
 */
export function capabilityClassOf(verbClass: VerbClass | null): CapabilityClass | null {
  switch (verbClass) {
    case 'read':
    case 'list':
      return 'read';
    case 'write':
    case 'update':
      return 'write';
    case 'delete':
      return 'delete';
    case 'execute':
      return 'execute';
    case 'admin':
      return 'admin';
    default:
      return null;
  }
}
