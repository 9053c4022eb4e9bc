import {
  sequenceOfClientOrderId,
  CLIENT_ORDER_ID_MAX_LENGTH,
  ClientOrderIds,
  keyedClientOrderId,
  namespaceOfClientOrderId,
  sequencedClientOrderId,
  strategyOfClientOrderId,
  strategyTag,
  tagOfClientOrderId,
} from '../../../src/engine/execution/client-order-ids.js';
import { StateStore } from '../../../src/store/state-file/state-store.js';

const ALLOWED = /^[A-Za-z0-9_-]{1,36}$/;

describe('deterministic client order ids', () => {
  test('plain strategy ids and keys stay readable', () => {
    expect(strategyTag('alpha')).toBe('alpha');
    expect(keyedClientOrderId('alpha', 'grid-L3-7')).toBe('alpha-grid-L3-7');
    expect(sequencedClientOrderId('alpha', 42)).toBe('alpha-42');
  });

  test('same inputs, same id; different strategies never collide', () => {
    expect(keyedClientOrderId('grid-btc', 'L1')).toBe(keyedClientOrderId('grid-btc', 'L1'));
    expect(strategyTag('grid-btc')).not.toContain('-');
    expect(strategyTag('grid-btc')).not.toBe(strategyTag('grid_btc'));
    // A tag never holds "-", so "a" with key "b-1" and "a-b" with key "1" differ.
    expect(keyedClientOrderId('a', 'b-1')).not.toBe(keyedClientOrderId('a-b', '1'));
  });

  test('ids keep to the allowed alphabet and length; long or odd keys are hashed', () => {
    const ids = [
      keyedClientOrderId('a strategy with spaces and ünïcode', 'k'),
      keyedClientOrderId('alpha', 'x'.repeat(80)),
      keyedClientOrderId('alpha', 'price=1.5/level#3'),
      keyedClientOrderId('averyveryverylongstrategyname', 'key'),
    ];
    for (const id of ids) {
      expect(id).toMatch(ALLOWED);
      expect(id.length).toBeLessThanOrEqual(CLIENT_ORDER_ID_MAX_LENGTH);
    }
    expect(keyedClientOrderId('alpha', 'x'.repeat(80))).not.toBe(keyedClientOrderId('alpha', 'x'.repeat(81)));
  });

  test('an all-digit key cannot take the id of a sequence number', () => {
    expect(keyedClientOrderId('alpha', '7')).not.toBe(sequencedClientOrderId('alpha', 7));
  });

  test('the tag names the owner back', () => {
    expect(tagOfClientOrderId('alpha-17')).toBe('alpha');
    expect(tagOfClientOrderId('1767952799112')).toBeUndefined();
    expect(strategyOfClientOrderId(keyedClientOrderId('grid-btc', 'L1'), ['alpha', 'grid-btc'])).toBe('grid-btc');
    expect(strategyOfClientOrderId('8d3c44d8-aad9-4fd6-b7f7-2ccf01aa0c4f', ['alpha'])).toBeUndefined();
  });

  test('the sequence is persistent: a new issuer over the same journal continues it', () => {
    const journal = StateStore.inMemory().journal();
    const first = new ClientOrderIds(journal);
    expect([first.clientOrderId('alpha'), first.clientOrderId('alpha')]).toEqual(['alpha-1', 'alpha-2']);
    expect(new ClientOrderIds(journal).clientOrderId('alpha')).toBe('alpha-3');
    expect(new ClientOrderIds(journal).clientOrderId('alpha', 'k')).toBe('alpha-k');
  });

  test('a state namespace goes between tag and key: two states never share an id, one state always repeats its own', () => {
    expect(keyedClientOrderId('quoter_btc', 'q3', 'k7p2x')).toBe('quoter_btc-k7p2x-q3');
    expect(sequencedClientOrderId('alpha', 42, 'k7p2x')).toBe('alpha-k7p2x-42');
    expect(keyedClientOrderId('quoter-btc', 'q3', 'k7p2x')).not.toBe(keyedClientOrderId('quoter-btc', 'q3', 'm4n5p'));
    expect(keyedClientOrderId('quoter-btc', 'q3', 'k7p2x')).toBe(keyedClientOrderId('quoter-btc', 'q3', 'k7p2x'));
    expect(namespaceOfClientOrderId(keyedClientOrderId('quoter-btc', 'q3', 'k7p2x'))).toBe('k7p2x');
    expect(strategyOfClientOrderId(keyedClientOrderId('grid-btc', 'L1', 'k7p2x'), ['alpha', 'grid-btc'])).toBe('grid-btc');
    // The longest tag (a hashed strategy id) with a namespace still fits 36 characters, long keys hashed.
    const longest = [
      keyedClientOrderId('a strategy with a very long name', 'a-key-of-some-length', 'k7p2x'),
      keyedClientOrderId('a strategy with a very long name', 'x'.repeat(80), 'k7p2x'),
      sequencedClientOrderId('a strategy with a very long name', 999_999_999_999, 'k7p2x'),
    ];
    for (const id of longest) {
      expect(id).toMatch(ALLOWED);
      expect(namespaceOfClientOrderId(id)).toBe('k7p2x');
    }
    expect(longest[0]).not.toBe(longest[1]);
  });

  test('an issuer with a namespace puts it in keyed and sequenced ids', () => {
    const ids = new ClientOrderIds(StateStore.inMemory().journal(), 'k7p2x');
    expect([ids.clientOrderId('alpha'), ids.clientOrderId('alpha', 'k')]).toEqual(['alpha-k7p2x-1', 'alpha-k7p2x-k']);
  });

  test('the sequence of a sequenced id is read back only in its namespace, never from a keyed or hashed id', () => {
    const hashed = keyedClientOrderId('alpha', 'x'.repeat(40), 'k7p2x');
    expect([
      sequenceOfClientOrderId('alpha-k7p2x-17', 'k7p2x'),
      sequenceOfClientOrderId('grid_btc_4f1a2b-k7p2x-3', 'k7p2x'),
      sequenceOfClientOrderId('alpha-k7p2x-17', 'zzzzz'),
      sequenceOfClientOrderId('alpha-k7p2x-q1', 'k7p2x'),
      sequenceOfClientOrderId('alpha-k7p2x-017', 'k7p2x'),
      sequenceOfClientOrderId('alpha-k7p2x-123456789012', 'k7p2x'),
      sequenceOfClientOrderId(hashed, 'k7p2x'),
    ]).toEqual([17, 3, undefined, undefined, undefined, undefined, undefined]);
  });
});
