/**
 * Self-test of the ACP tests' scripted model (fixtures/scripted-model.js): it plays the script
 * carried by the prompt, repeats a `repeatWhilePending` step while its result says PENDING (with
 * fresh call ids), and reports exactly the tool results it was sent.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
// @ts-expect-error -- plain JavaScript fixture (loaded by the installed example), no declarations
import * as scripted from './fixtures/scripted-model.js';
import { scriptPrompt } from './fixtures/model-report.ts';

type Chunk = { type: string; block?: { type: string; id?: string; name?: string; text?: string } };
type Listener = (options: { messages: unknown[]; tools?: { name: string }[] }) => AsyncGenerator<Chunk>;

/** @returns the listener the plugin registers, and whether it asked to be prepended */
function listener(): { play: Listener; prepend: unknown } {
  let play: Listener | undefined;
  let prepend: unknown;
  (scripted as { apply(ctx: unknown): void }).apply({
    on(name: string, fn: Listener, options: unknown) {
      assert.equal(name, 'llm/stream');
      play = fn;
      prepend = options;
    },
  });
  assert.ok(play);
  return { play, prepend };
}

/** @returns the blocks one request was answered with */
async function answer(play: Listener, messages: unknown[]): Promise<NonNullable<Chunk['block']>[]> {
  const blocks: NonNullable<Chunk['block']>[] = [];
  for await (const chunk of play({ messages, tools: [{ name: 'lsp_diagnostics' }] })) if (chunk.type === 'block-end' && chunk.block) blocks.push(chunk.block);
  return blocks;
}

const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const assistantCall = (id: string) => ({ role: 'assistant', content: [{ type: 'tool-call', id, name: 'lsp_diagnostics', arguments: '{}' }] });
const result = (id: string, text: string) => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: id, content: [{ type: 'text', text }] }] });

describe('scripted model (ACP test fixture)', () => {
  const prompt = user(scriptPrompt([{ id: 'd1', name: 'lsp_diagnostics', arguments: { file_path: 'a.ts' } }]));

  it('is prepended to llm/stream and plays the first step', async () => {
    const { play, prepend } = listener();
    assert.equal(prepend, true);
    assert.deepEqual(await answer(play, [prompt]), [{ type: 'tool-call', id: 'd1', name: 'lsp_diagnostics', arguments: '{"file_path":"a.ts"}' }]);
  });

  it('repeats a call whose result says PENDING, with a new id, then reports every result', async () => {
    const { play } = listener();
    const pending = [prompt, assistantCall('d1'), result('d1', 'a.ts — PENDING: not finished')];
    assert.equal((await answer(play, pending))[0]?.id, 'd1~1');
    const fresh = [...pending, assistantCall('d1~1'), result('d1~1', 'a.ts — 1 error (fresh)')];
    const [report] = await answer(play, fresh);
    assert.equal(report?.type, 'text');
    assert.deepEqual(JSON.parse(String(report?.text).replace(/^REPORT /, '')), {
      results: [
        { callId: 'd1', isError: false, text: 'a.ts — PENDING: not finished' },
        { callId: 'd1~1', isError: false, text: 'a.ts — 1 error (fresh)' },
      ],
      tools: ['lsp_diagnostics'],
    });
  });

  it('stops repeating after the limit and reports', async () => {
    const { play } = listener();
    const messages: unknown[] = [prompt, assistantCall('d1'), result('d1', 'PENDING')];
    for (let n = 1; n <= 3; n += 1) messages.push(assistantCall(`d1~${n}`), result(`d1~${n}`, 'PENDING'));
    const [report] = await answer(play, messages);
    assert.match(String(report?.text), /^REPORT /);
  });

  it('answers a prompt without a script with a plain text, never a tool call', async () => {
    const { play } = listener();
    assert.deepEqual(await answer(play, [user('hello')]), [{ type: 'text', text: 'scripted model: the prompt carries no SCRIPT' }]);
  });
});
