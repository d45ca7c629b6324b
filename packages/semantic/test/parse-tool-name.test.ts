import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CLASS_INTENT_VERBS,
  capabilityClassOf,
  parseToolName,
  splitIdentifier,
  VERB_CLASSES,
  VERB_GROUPS,
  verbClassOf,
  WEAK_VERBS,
} from '../src/index.js';
import { SERVERS_DIR as SERVERS } from './_corpus.js';

describe('splitIdentifier', () => {
  it.each([
    ['read_file', ['read', 'file']],
    ['getUserById', ['get', 'user', 'by', 'id']],
    ['GetUserById', ['get', 'user', 'by', 'id']],
    ['browser_snapshot', ['browser', 'snapshot']],
    ['list-issues', ['list', 'issues']],
    ['API_getThing', ['api', 'get', 'thing']],
    ['k8s.pods.list', ['k8s', 'pods', 'list']],
    ['runSEOAudit', ['run', 'seo', 'audit']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['listURLs', ['list', 'urls']],
    ['s3Bucket_get', ['s3', 'bucket', 'get']],
    [
      'appservice_webapp_settings_get-appsettings',
      ['appservice', 'webapp', 'settings', 'get', 'appsettings'],
    ],
    ['__weird--name..', ['weird', 'name']],
    ['', []],
  ])('%s', (name, tokens) => {
    expect(splitIdentifier(name)).toEqual(tokens);
  });
});

describe('parseToolName', () => {
  it.each([
    // name, verb, class, subject tokens
    ['read_file', 'read', 'read', ['file']],
    ['getUserById', 'get', 'read', ['user']],
    ['browser_snapshot', 'snapshot', 'read', ['browser']],
    ['list-issues', 'list', 'list', ['issues']],
    ['API_getThing', 'get', 'read', ['thing']],
    ['k8s.pods.list', 'list', 'list', ['k8s', 'pods']],
    ['file_read', 'read', 'read', ['file']],
    ['pods_list', 'list', 'list', ['pods']],
    ['resolve-library-id', 'resolve', 'read', ['library', 'id']],
    ['get_opportunity_by_stage', 'get', 'read', ['opportunity']],
    ['create_or_update_file', 'create', 'write', ['file']],
    ['list_directory_with_sizes', 'list', 'list', ['directory']],
    ['read_multiple_files', 'read', 'read', ['files']],
    ['slack_post_message', 'post', 'write', ['message']],
    ['slack_reply_to_thread', 'reply', 'write', ['thread']],
    ['retrieve_from_aws_kb', 'retrieve', 'read', ['aws', 'kb']],
    ['compute_vm_create', 'create', 'write', ['compute', 'vm']],
    ['search_index_get', 'get', 'read', ['search', 'index']],
    ['get-actor-run-list', 'list', 'list', ['actor', 'run']],
    ['monitor_metrics_query', 'query', 'list', ['monitor', 'metrics']],
    ['deploy_app_logs_get', 'get', 'read', ['deploy', 'app', 'logs']],
    ['firecrawl_interact_stop', 'stop', 'execute', ['firecrawl', 'interact']],
    ['takeScreenshot', 'take', 'read', ['screenshot']],
    ['navigate_page', 'navigate', 'execute', ['page']],
    ['kill_process', 'kill', 'execute', ['process']],
    ['wipeLogs', 'wipe', 'delete', ['logs']],
    ['start_search', 'start', 'execute', ['search']],
    ['configure_alerts', 'configure', 'admin', ['alerts']],
    ['handle_thing', 'handle', 'execute', ['thing']],
    ['maps_directions', null, null, ['maps', 'directions']],
    ['', null, null, []],
  ])('%s → %s (%s)', (name, verb, verbClass, subject) => {
    const parsed = parseToolName(name);
    expect(parsed.verb).toBe(verb);
    expect(parsed.verbClass).toBe(verbClass);
    expect(parsed.subjectTokens).toEqual(subject);
    expect(parsed.tokens).toEqual(splitIdentifier(name));
    expect(parsed.verbIndex).toBe(verb === null ? -1 : parsed.tokens.indexOf(verb, parsed.verbIndex));
  });

  it('finds a verb in at least 85% of the 672 real tool names', () => {
    let total = 0;
    let found = 0;
    for (const file of readdirSync(SERVERS).sort()) {
      const dump = JSON.parse(readFileSync(join(SERVERS, file), 'utf8')) as { tools: { name: string }[] };
      for (const tool of dump.tools) {
        total++;
        const parsed = parseToolName(tool.name);
        if (parsed.verb !== null) found++;
        expect(parsed.tokens.length, `${file}: ${tool.name}`).toBeGreaterThan(0);
      }
    }
    expect(total).toBe(672);
    expect(found / total).toBeGreaterThan(0.85);
  });
});

describe('verb tables', () => {
  it('puts every verb in exactly one group', () => {
    const seen = new Map<string, number>();
    VERB_GROUPS.forEach((group, i) => {
      for (const verb of group.verbs) {
        expect(seen.has(verb), `${verb} in groups ${seen.get(verb)} and ${i}`).toBe(false);
        seen.set(verb, i);
      }
    });
    for (const weak of WEAK_VERBS) expect(seen.has(weak), `weak verb ${weak} is in a group`).toBe(true);
  });
  it('keeps the vocabulary of docs/design.md §7 in its classes', () => {
    for (const cls of VERB_CLASSES) {
      for (const verb of CLASS_INTENT_VERBS[cls]) expect(verbClassOf(verb), verb).toBe(cls);
    }
  });
  it('maps verb classes onto capability classes (docs/design.md §4)', () => {
    expect(VERB_CLASSES.map((c) => capabilityClassOf(c))).toEqual([
      'read',
      'read',
      'write',
      'write',
      'delete',
      'execute',
      'admin',
    ]);
    expect(capabilityClassOf(null)).toBeNull();
  });
  it('covers the verbs of docs/design.md §4 with the classes it infers', () => {
    const table: [string, string][] = [
      ['read', 'read'],
      ['get', 'read'],
      ['list', 'read'],
      ['search', 'read'],
      ['find', 'read'],
      ['write', 'write'],
      ['create', 'write'],
      ['insert', 'write'],
      ['add', 'write'],
      ['update', 'write'],
      ['edit', 'write'],
      ['modify', 'write'],
      ['patch', 'write'],
      ['delete', 'delete'],
      ['remove', 'delete'],
      ['destroy', 'delete'],
      ['execute', 'execute'],
      ['run', 'execute'],
      ['invoke', 'execute'],
      ['call', 'execute'],
      ['admin', 'admin'],
      ['manage', 'admin'],
      ['configure', 'admin'],
    ];
    for (const [prefix, cap] of table) {
      expect(capabilityClassOf(parseToolName(`${prefix}_widget`).verbClass), prefix).toBe(cap);
    }
  });
});
