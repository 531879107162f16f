/**
 * Content-Length framing for the tsserver bridge: bodies split anywhere (inside a header, inside a
 * multi-byte character), bounds, and the lenient mode for tsserver's stdout (text between
 * messages skipped and reported, never a message lost).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ContentLengthSplitter, frameMessage } from '../../src/lsp/content-length-splitter.ts';
import { FramingError } from '../../src/lsp/frame-guard.ts';

const tsserverFrame = (message: unknown): Buffer => {
  const json = JSON.stringify(message);
  return Buffer.from(`Content-Length: ${Buffer.byteLength(json) + 1}\r\n\r\n${json}\n`, 'utf8');
};

function feedBytewise(splitter: ContentLengthSplitter, bytes: Buffer): string[] {
  const out: string[] = [];
  for (let i = 0; i < bytes.length; i++) out.push(...splitter.push(bytes.subarray(i, i + 1)));
  return out;
}

describe('ContentLengthSplitter', () => {
  it('hands out bodies whole, fed one byte at a time, multi-byte characters included', () => {
    const messages = [{ a: 'é😀' }, { seq: 2, body: 'x'.repeat(1000) }];
    const bytes = Buffer.concat([...messages.map(frameMessage), tsserverFrame({ b: 'ü' })]);
    const bodies = feedBytewise(new ContentLengthSplitter(1 << 20), bytes);
    assert.deepEqual(bodies.map((b) => JSON.parse(b)), [...messages, { b: 'ü' }]);
  });

  it('strict: garbage or an oversized body fails the stream', () => {
    assert.throws(() => new ContentLengthSplitter(1 << 20).push(Buffer.from('hello\r\n\r\n')), FramingError);
    assert.throws(() => new ContentLengthSplitter(10).push(frameMessage({ long: 'x'.repeat(20) })), /exceeds/);
  });

  it('lenient: text between messages is skipped and reported, split across chunks or not', () => {
    const skipped: string[] = [];
    const splitter = new ContentLengthSplitter(1 << 20, (bytes) => skipped.push(bytes.toString('utf8')));
    const bytes = Buffer.concat([Buffer.from('plugin says hi\n'), tsserverFrame({ n: 1 }), Buffer.from('more\r\n\r\nContent'), tsserverFrame({ n: 2 })]);
    const whole = new ContentLengthSplitter(1 << 20, () => undefined).push(bytes).map((b) => JSON.parse(b));
    assert.deepEqual(whole, [{ n: 1 }, { n: 2 }]);
    const bytewise = feedBytewise(splitter, bytes).map((b) => JSON.parse(b));
    assert.deepEqual(bytewise, [{ n: 1 }, { n: 2 }]);
    assert.equal(skipped.join(''), 'plugin says hi\nmore\r\n\r\nContent');
  });
});
