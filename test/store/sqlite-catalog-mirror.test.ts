import { InvariantError } from '../../src/core/errors.js';
import { unwrap } from '../../src/core/result.js';
import type { CatalogMirror } from '../../src/model/catalog-mirror.js';
import { canonicalJson } from '../../src/store/canonical-json.js';
import { StateStore } from '../../src/store/state-file/state-store.js';
import { tmpStateDir } from './tmp-state-dir.js';

const T = 1_767_225_600_000;

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [true, null, { z: 'x', y: undefined }], c: '1.50' } })).toBe('{"a":{"c":"1.50","d":[true,null,{"z":"x"}]},"b":1}');
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('refuses a non-finite number', () => {
    expect(() => canonicalJson({ n: Number.NaN })).toThrow(InvariantError);
  });
});

describe('SqliteCatalogMirror', () => {
  let store: StateStore;
  let mirror: CatalogMirror;
  beforeEach(() => {
    store = StateStore.inMemory();
    mirror = store.catalogMirror();
  });
  afterEach(() => store.close());

  it('creates, updates (content only, key order ignored) and deletes, each list sorted', () => {
    expect(mirror.diffAndApply('product', [
      { id: 'p2', data: { name: 'Two', price: '2' } },
      { id: 'p1', data: { name: 'One', price: '1' } },
      { id: 'p3', data: { name: 'Three', price: '3' } },
    ], T)).toEqual({ created: ['p1', 'p2', 'p3'], updated: [], deleted: [] });

    expect(mirror.diffAndApply('product', [
      { id: 'p1', data: { price: '1', name: 'One' } },
      { id: 'p3', data: { name: 'Three', price: '3.5' } },
      { id: 'p4', data: { name: 'Four', price: '4' } },
    ], T + 1000)).toEqual({ created: ['p4'], updated: ['p3'], deleted: ['p2'] });

    expect(mirror.count('product')).toBe(3);
    expect(mirror.ids('product')).toEqual(['p1', 'p3', 'p4']);
    expect(mirror.get('product', 'p3')).toEqual({ id: 'p3', data: { name: 'Three', price: '3.5' }, firstSeen: T, lastChanged: T + 1000 });
    expect(mirror.get('product', 'p1')).toMatchObject({ firstSeen: T, lastChanged: T });
    expect(mirror.get('product', 'p2')).toBeUndefined();
  });

  it('keeps entities apart', () => {
    mirror.diffAndApply('product', [{ id: 'x', data: 1 }], T);
    expect(mirror.diffAndApply('user', [{ id: 'x', data: 2 }], T)).toEqual({ created: ['x'], updated: [], deleted: [] });
    expect(mirror.diffAndApply('user', [], T)).toEqual({ created: [], updated: [], deleted: ['x'] });
    expect(mirror.count('product')).toBe(1);
    expect(mirror.count('user')).toBe(0);
  });

  it('applies a snapshot of both entities in one transaction and records the sync time', () => {
    expect(mirror.lastSyncedAt()).toBeUndefined();
    const diff = mirror.applySnapshot({ product: [{ id: 'p1', data: { a: 1 } }], user: [{ id: 'u1', data: { b: 2 } }] }, T);
    expect(diff).toEqual({ product: { created: ['p1'], updated: [], deleted: [] }, user: { created: ['u1'], updated: [], deleted: [] } });
    expect(mirror.lastSyncedAt()).toBe(T);
  });

  it('a duplicate id is an InvariantError and rolls back the whole snapshot', () => {
    mirror.applySnapshot({ product: [{ id: 'p1', data: { a: 1 } }], user: [] }, T);
    expect(() =>
      mirror.applySnapshot({ product: [{ id: 'p2', data: { a: 2 } }], user: [{ id: 'u1', data: {} }, { id: 'u1', data: {} }] }, T + 1),
    ).toThrow(InvariantError);
    expect(mirror.ids('product')).toEqual(['p1']);
    expect(mirror.count('user')).toBe(0);
    expect(mirror.lastSyncedAt()).toBe(T);
  });

  it('persists across a reopen', () => {
    const tmp = tmpStateDir();
    try {
      const first = unwrap(StateStore.open(tmp.dir));
      first.catalogMirror().applySnapshot({ product: [{ id: 'p1', data: { price: '9.99' } }], user: [] }, T);
      first.close();
      const second = unwrap(StateStore.open(tmp.dir));
      expect(second.catalogMirror().get('product', 'p1')?.data).toEqual({ price: '9.99' });
      expect(second.catalogMirror().diffAndApply('product', [{ id: 'p1', data: { price: '9.99' } }], T + 1)).toEqual({ created: [], updated: [], deleted: [] });
      second.close();
    } finally {
      tmp.remove();
    }
  });
});
