import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cutText, oneLine, renderBoundedList, safePrefix } from '../../src/tools/text-budget.ts';
import { wellFormed } from './tool-fixtures.ts';


const item = (c: string): string => c.repeat(40);

describe('text budget', () => {
  it('never ends a prefix inside a surrogate pair', () => {
    const text = 'ab😀cd';
    assert.equal(safePrefix(text, 3), 'ab');
    assert.equal(safePrefix(text, 4), 'ab😀');
    assert.equal(safePrefix(text, 0), '');
    assert.equal(safePrefix(text, 99), text);
    assert.equal(wellFormed(text.slice(0, 3)), false, 'the checker itself sees a lone surrogate');
  });

  it('cuts text to the exact limit, notice included', () => {
    const text = 'x'.repeat(50);
    assert.equal(cutText(text, 50), text, 'exactly at the limit: untouched');
    const cut = cutText(text, 49);
    assert.equal(cut.length, 49);
    assert.ok(cut.endsWith('…'));
    const noticed = cutText(text, 30, (n) => ` [${n} more]`);
    assert.equal(noticed.length, 30);
    assert.match(noticed, /\[\d+ more\]$/);
    const omitted = Number(/\[(\d+) more\]/.exec(noticed)?.[1]);
    assert.equal(noticed.length - ` [${omitted} more]`.length + omitted, 50, 'the notice counts what it left out');
  });

  it('stays within tiny limits', () => {
    for (const max of [0, 1, 2, 5]) {
      const cut = cutText('hello world', max, (n) => `… ${n} more characters`);
      assert.ok(cut.length <= max, `max ${max}: ${JSON.stringify(cut)}`);
    }
  });

  it('counts multibyte text in UTF-16 units and keeps it well-formed', () => {
    const text = '错误😀'.repeat(20);
    for (let max = 1; max < text.length; max++) {
      const cut = cutText(text, max);
      assert.ok(cut.length <= max);
      assert.ok(wellFormed(cut), `max ${max}`);
    }
  });

  it('flattens multi-line items', () => {
    assert.equal(oneLine('a\nb\r\nc', 100), 'a ⏎ b ⏎ c');
    assert.equal(oneLine('abcdef', 4), 'abc…');
  });

  it('shows every item when the whole list fits, exactly at the limit', () => {
    const list = { head: ['head'], items: ['one', 'two'], alreadyOmitted: 0, noun: 'things' };
    const full = 'head\none\ntwo';
    assert.deepEqual(renderBoundedList(list, full.length), { text: full, shown: 2 });
  });

  it('drops whole items and says how many, within the limit', () => {
    const list = { head: ['head'], items: [item('a'), item('b'), item('c')], alreadyOmitted: 0, noun: 'things' };
    const full = ['head', item('a'), item('b'), item('c')].join('\n');
    const two = `head\n${item('a')}\n${item('b')}\n… 1 more things not shown`;
    assert.deepEqual(renderBoundedList(list, full.length - 1), { text: two, shown: 2 });
    assert.deepEqual(renderBoundedList(list, two.length), { text: two, shown: 2 }, 'exactly at the limit with a notice');
    const one = `head\n${item('a')}\n… 2 more things not shown`;
    assert.deepEqual(renderBoundedList(list, two.length - 1), { text: one, shown: 1 });
  });

  it('adds items a count cap already left out to the notice', () => {
    const out = renderBoundedList({ head: ['h'], items: ['a', 'b'], alreadyOmitted: 37, noun: 'diagnostics' }, 1000);
    assert.equal(out.text, 'h\na\nb\n… 37 more diagnostics not shown');
  });

  it('weights items: headings count for nothing, and hidden headings alone are "lines"', () => {
    const x = 'x'.repeat(30);
    const headingB = `file b ${'y'.repeat(33)}`;
    const list = { head: [], items: ['file a', x, headingB], counts: [0, 1, 0], alreadyOmitted: 0, noun: 'diagnostics' };
    assert.equal(renderBoundedList(list, 1000).text, `file a\n${x}\n${headingB}`);
    const lines = `file a\n${x}\n… 1 more lines not shown`;
    assert.equal(renderBoundedList(list, lines.length).text, lines);
    assert.equal(renderBoundedList(list, lines.length - 1).text, 'file a\n… 1 more diagnostics not shown');
  });

  it('keeps the tail after the notice', () => {
    const a = 'a'.repeat(30);
    const b = 'b'.repeat(30);
    const expected = `h\n${a}\n… 1 more x not shown\ntail`;
    const out = renderBoundedList({ head: ['h'], items: [a, b], alreadyOmitted: 0, noun: 'x', tail: ['tail'] }, expected.length);
    assert.equal(out.text, expected);
  });

  it('cuts the whole text when even the head does not fit', () => {
    for (const max of [0, 3, 10]) {
      const out = renderBoundedList({ head: ['a very long heading line'], items: ['item'], alreadyOmitted: 0, noun: 'x' }, max);
      assert.ok(out.text.length <= max);
      assert.equal(out.shown, 0);
    }
  });

  it('keeps multibyte lists within the limit and well-formed at every limit', () => {
    const items = Array.from({ length: 12 }, (_, i) => `错误 ${i} 😀 类型不匹配`);
    const list = { head: ['文件 src/a.ts — 12 errors'], items, alreadyOmitted: 3, noun: 'diagnostics' };
    for (let max = 0; max < 400; max += 7) {
      const out = renderBoundedList(list, max);
      assert.ok(out.text.length <= max, `max ${max}`);
      assert.ok(wellFormed(out.text), `max ${max}`);
    }
  });
});
