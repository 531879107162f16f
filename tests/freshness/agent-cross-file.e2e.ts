/**
 * Issue 7 through real agent turns: the DSH agent loop with a scripted model, the harness's own
 * `read`/`edit` tools (`@deepseek-ai/dsh-tool-fs` rc.8) composed next to this plugin, and the
 * real typescript-language-server behind `lsp_diagnostics`. `main.ts` imports from `lib.ts`;
 * `lib.ts` changes — by the agent's `edit` in the same turn as the next check, or on disk
 * between turns — and `main.ts` is asked about at once, then polled turn by turn. Every answer
 * the model is given is correct for the files as they are now or marked non-fresh, and a fresh
 * correct one arrives. One test per scenario.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, realpathSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import type { Agent } from '@deepseek-ai/dsh-agent';
import type { Plugin } from '@deepseek-ai/cordis';
import { ScriptedAgentHarness, type ScriptedToolCall } from '../support/scripted-agent.ts';
import { LIB_TS, LIB_TS_RETURNS_STRING, MAIN_TS, put } from './cross-file-fixtures.ts';
import { errorCodes, pollVerdicts, type Verdict } from './poll-verdicts.ts';

const T = { timeout: 300_000 };
let ws: string;
let harness: ScriptedAgentHarness;
let agent: Agent;
let calls = 0;

before(async () => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-fresh-agent-')));
  put(ws, 'tsconfig.json', '{"compilerOptions":{"strict":true,"noEmit":true,"target":"ES2022","module":"ESNext","moduleResolution":"Bundler"}}');
  for (const dir of ['edited', 'external', 'deleted']) {
    put(ws, `${dir}/lib.ts`, LIB_TS);
    put(ws, `${dir}/main.ts`, MAIN_TS);
  }
  harness = await ScriptedAgentHarness.start({
    workspace: ws,
    sandboxMode: 'workspace-write',
    extraPlugins: [{ plugin: toolFs as unknown as Plugin }],
  });
  agent = await harness.createAgent(ws);
});
after(async () => {
  await harness?.dispose();
  rmSync(ws, { recursive: true, force: true });
});

/** What `lsp_diagnostics` told the model for one call (its structured value). */
function verdictOf(callId: string): Verdict {
  const recorded = harness.toolResult(callId).result;
  assert.equal(recorded.isError, false, JSON.stringify(recorded));
  const file = (recorded.value as { files: Array<{ state: string; diagnostics: Array<{ severity?: unknown; code?: unknown }> }> }).files[0];
  assert.ok(file, 'one file checked');
  return { state: file.state, errors: errorCodes(file.diagnostics) };
}

/** One turn whose tool calls are `first` and then `lsp_diagnostics` of `filePath`. */
async function turn(filePath: string, first: ScriptedToolCall[] = []): Promise<Verdict> {
  const id = `diag_${++calls}`;
  await harness.prompt(agent, `Check ${filePath}.`, [{ toolCalls: [...first, { id, name: 'lsp_diagnostics', arguments: { file_path: filePath } }] }, { text: 'Checked.' }], 180_000);
  for (const call of first) {
    const result = harness.toolResult(call.id ?? '').result;
    assert.equal(result.isError, false, `${call.name}: ${JSON.stringify(result)}`);
  }
  return verdictOf(id);
}

/** Polls with the first answer already taken (asked with no pause after the change). */
function thenPoll(first: Verdict, filePath: string): () => Promise<Verdict> {
  let pending: Verdict | undefined = first;
  return async () => {
    const taken = pending;
    pending = undefined;
    return taken ?? turn(filePath);
  };
}

async function baseline(dir: string): Promise<void> {
  await pollVerdicts(() => turn(`${dir}/main.ts`), [], `${dir} baseline main.ts`);
  await pollVerdicts(() => turn(`${dir}/lib.ts`), [], `${dir} baseline lib.ts`);
}

describe('cross-file freshness through agent turns (real typescript-language-server)', () => {
  it("the agent's own edit of lib.ts (harness edit tool) gives main.ts TS2554 in the same turn's check", T, async () => {
    await baseline('edited');
    const first = await turn('edited/main.ts', [
      { id: `read_${++calls}`, name: 'read', arguments: { file_path: 'edited/lib.ts' } },
      {
        id: `edit_${++calls}`,
        name: 'edit',
        arguments: { file_path: 'edited/lib.ts', old_string: '(a: number): number {\n  return a;', new_string: '(a: number, b: number): number {\n  return a + b;' },
      },
    ]);
    await pollVerdicts(thenPoll(first, 'edited/main.ts'), ['2554'], 'agent edit');
  });

  it('lib.ts changed on disk between turns: main.ts gets TS2322', T, async () => {
    await baseline('external');
    writeFileSync(join(ws, 'external/lib.ts'), LIB_TS_RETURNS_STRING);
    await pollVerdicts(() => turn('external/main.ts'), ['2322'], 'external change');
  });

  it('lib.ts deleted between turns (TS2307), then recreated (clean)', T, async () => {
    await baseline('deleted');
    unlinkSync(join(ws, 'deleted/lib.ts'));
    await pollVerdicts(() => turn('deleted/main.ts'), ['2307'], 'deleted');
    writeFileSync(join(ws, 'deleted/lib.ts'), LIB_TS);
    await pollVerdicts(() => turn('deleted/main.ts'), [], 'recreated');
  });
});
