// The folder view's loaded rows: pages extend the list in display order, key positions follow,
// and selection works over the list as over a plain array of keys.
import { describe, expect, it } from 'vitest';
import { nextRowList, RowList, type RowOrder } from '../../src-renderer/features/browser/row-list.js';
import type { Row } from '../../src-renderer/features/browser/rows.js';
import { clickSelect, keyOrder, moveFocus, selectAll } from '../../src-renderer/features/browser/selection-logic.js';

const obj = (key: string, size = 0): Row => ({ key, kind: 'object', label: key, size, type: null, modified: null });
const dir = (key: string): Row => ({ key, kind: 'folder', label: key.replace(/\/$/, ''), size: null, type: null, modified: null });
const keysOf = (list: RowList) => list.rows.map((r) => r.key);
const byName: RowOrder = { column: 'name', direction: 'asc' };
const bySize: RowOrder = { column: 'size', direction: 'asc' };

describe('RowList', () => {
  it('finds keys by position, and none that are missing', () => {
    const list = RowList.of([obj('a'), obj('b'), obj('c')]);
    expect(list.indexOf('c')).toBe(2);
    expect(list.indexOf('a')).toBe(0);
    expect(list.indexOf('zz')).toBe(-1);
    expect(list.keyAt(1)).toBe('b');
  });

  it('an appended list finds the new keys; the shorter one it came from does not', () => {
    const first = RowList.of([obj('a'), obj('b')]);
    expect(first.indexOf('b')).toBe(1);
    const longer = first.append([obj('c'), obj('d')]);
    expect(longer.length).toBe(4);
    expect(longer.indexOf('d')).toBe(3);
    expect(longer.indexOf('a')).toBe(0);
    // The index is shared and now knows 'd', but it is past the first list's end.
    expect(first.indexOf('d')).toBe(-1);
    expect(first.length).toBe(2);
  });

  it('two lists appended to the same one keep their own positions', () => {
    const base = RowList.of([obj('a')]);
    const one = base.append([obj('b'), obj('c')]);
    const other = base.append([obj('c'), obj('b')]);
    expect(one.indexOf('c')).toBe(2);
    expect(other.indexOf('c')).toBe(1);
    expect(other.indexOf('b')).toBe(2);
    expect(one.indexOf('b')).toBe(1);
  });

  it('picks selected rows in display order, few or many', () => {
    const list = RowList.of(Array.from({ length: 40 }, (_, i) => obj(`k${String(i).padStart(2, '0')}`)));
    expect(list.pick(new Set()).map((r) => r.key)).toEqual([]);
    expect(list.pick(new Set(['k30', 'k02', 'gone'])).map((r) => r.key)).toEqual(['k02', 'k30']);
    const all = new Set(keysOf(list).reverse());
    expect(list.pick(all).map((r) => r.key)).toEqual(keysOf(list));
  });
});

describe('nextRowList', () => {
  const p1 = [dir('a/'), obj('b', 5), obj('c', 1)];
  const p2 = [obj('d', 3), dir('e/'), obj('f', 0)];

  it("in the server's order, pages append and the key index carries over", () => {
    const one = nextRowList(null, [p1], byName);
    expect(one.list.indexOf('c')).toBe(2);
    const two = nextRowList(one, [p1, p2], byName);
    expect(keysOf(two.list)).toEqual(['a/', 'b', 'c', 'd', 'e/', 'f']);
    expect(two.list.indexOf('f')).toBe(5);
    expect(two.list.indexOf('b')).toBe(1);
  });

  it('the same pages again give the same list', () => {
    const one = nextRowList(null, [p1, p2], bySize);
    expect(nextRowList(one, [p1, p2], bySize)).toBe(one);
  });

  it('in another order, a new page is merged in: as if everything were sorted at once', () => {
    const merged = nextRowList(nextRowList(null, [p1], bySize), [p1, p2], bySize);
    const atOnce = nextRowList(null, [p1, p2], bySize);
    expect(keysOf(merged.list)).toEqual(['a/', 'e/', 'f', 'c', 'd', 'b']);
    expect(keysOf(merged.list)).toEqual(keysOf(atOnce.list));
    expect(merged.list.indexOf('b')).toBe(5);
    expect(merged.list.indexOf('f')).toBe(2);
  });

  it('a new sort, or pages that do not extend the old ones (a refetch), start over', () => {
    const one = nextRowList(null, [p1, p2], byName);
    expect(one.list.indexOf('f')).toBe(5);
    const desc = nextRowList(one, [p1, p2], { column: 'name', direction: 'desc' });
    expect(keysOf(desc.list)).toEqual(['f', 'e/', 'd', 'c', 'b', 'a/']);
    expect(desc.list.indexOf('f')).toBe(0);
    const refetched = nextRowList(desc, [[obj('x')]], { column: 'name', direction: 'desc' });
    expect(keysOf(refetched.list)).toEqual(['x']);
    expect(refetched.list.indexOf('f')).toBe(-1);
  });
});

describe('selection over a RowList', () => {
  const list = RowList.of(['a', 'b', 'c', 'd', 'e'].map((k) => obj(k)));
  const none = { selected: new Set<string>(), anchor: null, focus: null };

  it('Shift ranges, arrows and select-all agree with a plain key array', () => {
    const plain = keyOrder(keysOf(list));
    const clicked = clickSelect(list, none, 'b', { toggle: false, range: false });
    const ranged = clickSelect(list, clicked, 'd', { toggle: false, range: true });
    expect([...ranged.selected]).toEqual(['b', 'c', 'd']);
    expect(ranged).toEqual(clickSelect(plain, clicked, 'd', { toggle: false, range: true }));
    const up = moveFocus(list, ranged, { by: -3 }, { toggle: false, range: true });
    expect([...up.selected].sort()).toEqual(['a', 'b']);
    expect(up.focus).toBe('a');
    expect(moveFocus(list, up, 'last', { toggle: false, range: false })).toEqual({ selected: new Set(['e']), anchor: 'e', focus: 'e' });
    expect([...selectAll(list, none).selected]).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(selectAll(list, none)).toEqual(selectAll(plain, none));
  });
});
