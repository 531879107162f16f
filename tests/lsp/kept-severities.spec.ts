/**
 * `keptSeverities` (unopened-pull.ts): a batch that keeps errors and warnings drops a server's
 * hints and infos before their positions are mapped (mapping a utf-8 column reads the file), and
 * never drops an item whose severity it cannot tell (none, out of range: normalising judges it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { keptSeverities } from '../../src/lsp/unopened-pull.ts';

const items = [{ severity: 1, m: 'e' }, { severity: 2, m: 'w' }, { severity: 3, m: 'i' }, { severity: 4, m: 'h' }, { m: 'none' }, 'not an object', { severity: 5, m: 'out of range' }, { severity: 2.5, m: 'not an integer' }];

describe('keptSeverities', () => {
  it('keeps the items at or above the lowest kept severity, and those without one', () => {
    const unjudged = [{ m: 'none' }, 'not an object', { severity: 5, m: 'out of range' }, { severity: 2.5, m: 'not an integer' }];
    assert.deepEqual(keptSeverities(items, 2), [{ severity: 1, m: 'e' }, { severity: 2, m: 'w' }, ...unjudged]);
    assert.deepEqual(keptSeverities(items, 1), [{ severity: 1, m: 'e' }, ...unjudged]);
  });

  it('keeps everything when every severity is kept or none is named', () => {
    assert.equal(keptSeverities(items, 4), items);
    assert.equal(keptSeverities(items, undefined), items);
  });
});
