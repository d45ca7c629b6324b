import { describe, expect, it } from 'vitest';
import { pluralize, singularize } from '../src/index.js';

describe('inflector', () => {
  it.each([
    ['file', 'files'],
    ['opportunity', 'opportunities'],
    ['directory', 'directories'],
    ['day', 'days'],
    ['key', 'keys'],
    ['box', 'boxes'],
    ['match', 'matches'],
    ['wish', 'wishes'],
    ['class', 'classes'],
    ['status', 'statuses'],
    ['alias', 'aliases'],
    ['quiz', 'quizzes'],
    ['person', 'people'],
    ['child', 'children'],
    ['analysis', 'analyses'],
    ['criterion', 'criteria'],
    ['matrix', 'matrices'],
    ['leaf', 'leaves'],
    ['knife', 'knives'],
    ['potato', 'potatoes'],
    ['photo', 'photos'],
    ['repo', 'repos'],
    ['movie', 'movies'],
    ['cookie', 'cookies'],
    ['database', 'databases'],
    ['response', 'responses'],
    ['process', 'processes'],
    ['cache', 'caches'],
    ['branch', 'branches'],
    ['waltz', 'waltzes'],
    ['size', 'sizes'],
    ['api', 'apis'],
    ['base', 'bases'],
    ['wiki', 'wikis'],
  ])('%s ↔ %s', (singular, plural) => {
    expect(pluralize(singular)).toBe(plural);
    expect(singularize(plural)).toBe(singular);
    expect(singularize(singular)).toBe(singular);
  });
  it.each([
    'data',
    'news',
    'information',
    'feedback',
    'software',
    'series',
    'species',
    'k8s',
    'dns',
    'metadata',
  ])('keeps uncountable %s', (word) => {
    expect(pluralize(word)).toBe(word);
    expect(singularize(word)).toBe(word);
  });
});
