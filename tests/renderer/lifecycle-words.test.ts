// A lifecycle rule in plain words, the rule dialog's checks, and the tag checks: what the
// container details show and refuse before anything reaches the server.
import { describe, expect, it } from 'vitest';
import { containersMethods } from '../../src-shared/contract/containers.js';
import { draftOf, ruleFromDraft, ruleSentences, suggestId } from '../../src-renderer/features/containers/lifecycle-words.js';
import { changesFor } from '../../src-renderer/features/containers/lifecycle-words.js';
import { tagProblems } from '../../src-renderer/features/containers/tag-rules.js';

const base = { id: 'r', enabled: true, prefix: 'logs/', expirationDays: null, noncurrentDays: null, abortIncompleteDays: null, extras: [] };

describe('ruleSentences', () => {
  it('says what each action does to which objects', () => {
    expect(ruleSentences({ ...base, expirationDays: 30, noncurrentDays: 1, abortIncompleteDays: 2 }, false)).toEqual([
      'Objects under logs/ are deleted 30 days after upload.',
      'Earlier versions of objects under logs/ are removed 1 day after a newer version replaced them.',
      'Unfinished uploads under logs/ are cancelled 2 days after they started.',
    ]);
    expect(ruleSentences({ ...base, prefix: '', expirationDays: 1 }, false)).toEqual(['Objects are deleted 1 day after upload.']);
    expect(ruleSentences({ ...base, prefix: 'tmp', expirationDays: 1 }, false)).toEqual(['Objects whose names start with “tmp” are deleted 1 day after upload.']);
  });

  it('in a versioned container, says a deleted object is kept as an earlier version', () => {
    expect(ruleSentences({ ...base, expirationDays: 3 }, true)[0]).toMatch(/versioning keeps them as earlier versions, behind a delete marker/);
  });

  it('puts filters first and words every part the app does not edit', () => {
    const words = ruleSentences(
      {
        ...base,
        expirationDays: 5,
        extras: [
          { kind: 'transition', storageClass: 'GLACIER', days: 10, date: null },
          { kind: 'tagFilter', key: 'class', value: 'scratch' },
          { kind: 'expirationDate', date: '2031-01-01T00:00:00.000Z' },
          { kind: 'sizeFilter', greaterThan: 1_000_000, lessThan: null },
        ],
      },
      false,
    );
    expect(words[0]).toBe('Only objects tagged class = scratch.');
    expect(words[1]).toMatch(/^Only objects larger than 1 MB\.$/);
    expect(words).toContain('Objects under logs/ move to the GLACIER storage class 10 days after upload.');
    expect(words.some((w) => /are deleted on .*2031/.test(w))).toBe(true);
  });
});

describe('the rule dialog', () => {
  const draft = { ...draftOf(null, 'rule-1'), prefix: 'logs/' };

  it('makes a rule from what was typed (empty fields are actions the rule does not take)', () => {
    expect(ruleFromDraft({ ...draft, expirationDays: ' 30 ' }, [])).toEqual({
      rule: { id: 'rule-1', enabled: true, prefix: 'logs/', expirationDays: 30, noncurrentDays: null, abortIncompleteDays: null },
    });
    expect(ruleFromDraft({ ...draft, everything: true, abortIncompleteDays: '1' }, [])).toMatchObject({ rule: { prefix: '', abortIncompleteDays: 1 } });
  });

  it('refuses a rule that does nothing, days that are not whole and positive, a name taken or missing, a missing prefix', () => {
    const problems = (d: Partial<typeof draft>, taken: string[] = []) => ('problems' in ruleFromDraft({ ...draft, ...d }, taken) ? (ruleFromDraft({ ...draft, ...d }, taken) as { problems: string[] }).problems : []);
    expect(problems({})).toEqual(['Fill in at least one of the three: a rule must delete objects, earlier versions or unfinished uploads.']);
    expect(problems({ expirationDays: '0' })[0]).toMatch(/a whole number of days, at least 1/);
    expect(problems({ expirationDays: '1.5' })[0]).toMatch(/a whole number of days/);
    expect(problems({ expirationDays: '1' }, ['rule-1'])).toEqual(['Another rule is already named “rule-1”.']);
    expect(problems({ expirationDays: '1', id: ' ' })).toEqual(['Give the rule a name.']);
    expect(problems({ expirationDays: '1', prefix: '' })).toEqual(['Give the prefix, or choose every object.']);
  });

  it('suggests a name no rule has', () => {
    expect(suggestId(['rule-1', 'rule-3'])).toBe('rule-2');
  });
});

describe('a save names every rule: kept ones by id, the changed one by its fields', () => {
  const view = { basis: 'b', rules: [{ ...base, id: 'a' }, { ...base, id: 'b' }] };
  const edited = { kind: 'fields' as const, ...base, id: 'b2', expirationDays: 1 };
  it('edits, deletes and adds', () => {
    expect(changesFor(view, { id: 'b', change: edited })).toEqual([{ kind: 'keep', id: 'a' }, edited]);
    expect(changesFor(view, { id: 'a', change: null })).toEqual([{ kind: 'keep', id: 'b' }]);
    expect(changesFor(view, { id: null, change: edited })).toEqual([{ kind: 'keep', id: 'a' }, { kind: 'keep', id: 'b' }, edited]);
  });
});

describe('tags', () => {
  it('are checked as AWS limits a bucket’s: keys present, unique, not aws:, lengths in characters, at most 50', () => {
    expect(tagProblems([{ key: 'ключ', value: 'é'.repeat(256) }])).toEqual([]);
    expect(tagProblems([{ key: '', value: 'x' }, { key: 'a', value: '' }, { key: 'a', value: '' }, { key: 'AWS:x', value: '' }])).toEqual([
      'Tag 1 needs a key.',
      'The key “a” is used more than once.',
      'Tag 4: keys starting with aws: are reserved by AWS.',
    ]);
    expect(tagProblems([{ key: 'k'.repeat(129), value: 'v'.repeat(257) }])).toHaveLength(2);
    expect(tagProblems(Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: '' })))).toEqual(['A container has at most 50 tags.']);
    // AWS's own tags, kept beside the user's, count toward the 50.
    expect(tagProblems(Array.from({ length: 49 }, (_, i) => ({ key: `k${i}`, value: '' })), 2)).toEqual(['A container has at most 50 tags.']);
  });
});

describe('the contract refuses what the server would (main checks every argument)', () => {
  const where = { account: 'local', container: 'c', basis: '' };
  const rule = { kind: 'fields', id: 'r', enabled: true, prefix: '', expirationDays: 1, noncurrentDays: null, abortIncompleteDays: null };
  it('lifecycle rules', () => {
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [rule, { kind: 'keep', id: 'x', enabled: false }] }).success).toBe(true);
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [{ ...rule, expirationDays: null }] }).success).toBe(false);
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [{ ...rule, expirationDays: 0 }] }).success).toBe(false);
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [rule, { kind: 'keep', id: 'r' }] }).success).toBe(false);
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [{ ...rule, id: 'é'.repeat(255) }] }).success).toBe(true);
    expect(containersMethods.setLifecycle.safeParse({ ...where, rules: [{ ...rule, id: 'é'.repeat(256) }] }).success).toBe(false);
  });
  it('tags', () => {
    expect(containersMethods.setTags.safeParse({ ...where, tags: [{ key: '🙂'.repeat(128), value: '' }] }).success).toBe(true);
    expect(containersMethods.setTags.safeParse({ ...where, tags: [{ key: 'aws:x', value: '' }] }).success).toBe(false);
    expect(containersMethods.setTags.safeParse({ ...where, tags: [{ key: 'a', value: '' }, { key: 'a', value: '1' }] }).success).toBe(false);
    expect(containersMethods.setTags.safeParse({ ...where, tags: Array.from({ length: 51 }, (_, i) => ({ key: `k${i}`, value: '' })) }).success).toBe(false);
  });
});
