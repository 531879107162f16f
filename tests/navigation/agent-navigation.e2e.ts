/**
 * Issue 22 through real agent turns: the DSH agent loop with a scripted model, the plugin from
 * `src/`, the harness's own `read`/`edit` tools, and real language servers —
 * typescript-language-server 5.3.0 + TypeScript 5.9.3 (embedded preset) and pyright 1.1.414 — on
 * the navigation fixture (tests/navigation/navigation-fixtures.ts). Every answer's exact set of
 * places is asserted on the structured value, and its lines on the text the model was sent;
 * symbol-name addressing gives the same answers as positions; a wrong position gets the
 * documented note or error; edits (the agent's own, and one on disk) show in the next answer;
 * 500 call sites are cut to the item cap with a count.
 */
import assert from 'node:assert/strict';
import { appendFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Plugin } from '@deepseek-ai/cordis';
import type { Agent } from '@deepseek-ai/dsh-agent';
import * as toolFs from '@deepseek-ai/dsh-tool-fs';
import type { CallHierarchyGetResult, HoverGetResult, LocationsResult } from '../../src/actions/action-results.ts';
import { INDEXED_NOTE } from '../../src/tools/navigation-render.ts';
import { ScriptedAgentHarness, type ScriptedToolCall } from '../support/scripted-agent.ts';
import { PYRIGHT, testServersInstalled } from '../support/servers.ts';
import { createNavigationWorkspace, TICK_CALLS, type NavigationWorkspace } from './navigation-fixtures.ts';

const T = { timeout: 300_000 };

/** What one tool call gave the model and the session. */
interface Answer {
  isError: boolean;
  text: string;
  value: Record<string, unknown> | undefined;
  code: string | undefined;
}

/** One harness and agent per language. */
class NavigationSession {
  harness!: ScriptedAgentHarness;
  agent!: Agent;
  ws!: NavigationWorkspace;
  #calls = 0;

  async start(language: 'ts' | 'py'): Promise<void> {
    this.ws = createNavigationWorkspace(language);
    const pluginConfig =
      language === 'py'
        ? {
            embeddedTypeScript: false,
            servers: { pyright: { command: process.execPath, args: [PYRIGHT, '--stdio'], extensionToLanguage: { '.py': 'python' }, rootMarkers: ['pyproject.toml'] } },
          }
        : {};
    this.harness = await ScriptedAgentHarness.start({
      workspace: this.ws.root,
      sandboxMode: 'workspace-write',
      pluginConfig,
      extraPlugins: [{ plugin: toolFs as unknown as Plugin }],
    });
    this.agent = await this.harness.createAgent(this.ws.root);
  }

  async stop(): Promise<void> {
    await this.harness?.dispose();
    if (this.ws) rmSync(this.ws.root, { recursive: true, force: true });
  }

  /** One turn: `before` calls (asserted successful), then the navigation call. */
  async ask(name: string, args: Record<string, unknown>, first: ScriptedToolCall[] = []): Promise<Answer> {
    const id = `nav_${++this.#calls}`;
    await this.harness.prompt(this.agent, `${name} ${JSON.stringify(args)}`, [{ toolCalls: [...first, { id, name, arguments: args }] }, { text: 'Done.' }], 240_000);
    for (const call of first) assert.equal(this.harness.toolResult(call.id ?? '').result.isError, false, `${call.name} succeeded`);
    const seen = this.harness.model.seenToolResult(id);
    assert.ok(seen, `the model was sent the result of ${id}`);
    const recorded = this.harness.toolResult(id).result;
    return {
      isError: seen.isError,
      text: seen.text,
      value: recorded.isError ? undefined : (recorded.value as Record<string, unknown>),
      code: (recorded as { error?: { info?: { code?: string } } }).error?.info?.code,
    };
  }

  nextId(prefix: string): string {
    return `${prefix}_${++this.#calls}`;
  }
}

/** `path:line:col` (one-based) of every listed place, in result order. */
function places(answer: Answer): string[] {
  assert.equal(answer.isError, false, answer.text);
  const value = answer.value as unknown as LocationsResult;
  return value.locations.map((l) => `${l.filePath}:${l.range.start.line + 1}:${l.range.start.character + 1}`);
}

/** `path:line:col name` of every call site. */
function calls(answer: Answer): string[] {
  assert.equal(answer.isError, false, answer.text);
  const value = answer.value as unknown as CallHierarchyGetResult;
  return value.calls.map((c) => `${c.filePath}:${c.range.start.line + 1}:${c.range.start.character + 1} ${c.other.name}`);
}

/** Every place is shown to the model as `line:col: source` under its file. */
function assertShown(answer: Answer, list: readonly string[]): void {
  for (const place of list) {
    const [file, line, col] = place.split(' ')[0]?.split(':') ?? [];
    assert.ok(answer.text.includes(`\n${file}\n`) || answer.text.includes(`\n${file}`), `${file} heads a group:\n${answer.text}`);
    assert.ok(answer.text.includes(`  ${line}:${col}: `), `${place} listed:\n${answer.text}`);
  }
}

/** Expected answers per language, one-based. */
interface Expectations {
  lang: 'ts' | 'py';
  skip: string | false;
  describeCall: [string, number, number];
  describeDefinition: string[];
  describeReferences: string[];
  declaration: string;
  describeCallers: string[];
  totalPosition: [string, number, number];
  totalCallees: string[];
  hoverLines: string[];
  interfaceMember: [string, number, number];
  areaImplementations: string[] | 'unsupported';
  keywordPosition: [string, number, number];
  keywordNote: RegExp;
  cartReferences: string[];
  blankLine: [string, number, number];
  blankCandidate: string;
  externalEdit: { file: string; line: string; place: string };
  agentEdit: { file: string; old: string; new: string; place: string };
  cartSymbols: string[];
}

const TS: Expectations = {
  lang: 'ts',
  skip: false,
  describeCall: ['src/main.ts', 9, 13],
  describeDefinition: ['src/format.ts:4:17'],
  describeReferences: ['src/cart.ts:2:10', 'src/cart.ts:14:34', 'src/format.ts:4:17', 'src/main.ts:4:10', 'src/main.ts:9:13', 'src/report.ts:1:10', 'src/report.ts:1:22', 'src/report.ts:5:10'],
  declaration: 'src/format.ts:4:17',
  describeCallers: ['src/cart.ts:14:34 summary', 'src/main.ts:9:13 main.ts', 'src/report.ts:5:10 report'],
  totalPosition: ['src/cart.ts', 10, 3],
  totalCallees: ['src/cart.ts:11:12 reduce', 'src/cart.ts:11:48 area'],
  hoverLines: ['(method) Cart.total(): number', 'Sum of the areas of every item.'],
  interfaceMember: ['src/shapes.ts', 4, 3],
  areaImplementations: ['src/circle.ts:5:3', 'src/square.ts:5:3'],
  keywordPosition: ['src/main.ts', 6, 1],
  keywordNote: /6:1 is on the keyword `const`; used `cart` at 6:7, the nearest name on that line/,
  cartReferences: ['src/main.ts:6:7', 'src/main.ts:7:1', 'src/main.ts:8:1', 'src/main.ts:9:38'],
  blankLine: ['src/main.ts', 5, 1],
  blankCandidate: 'cart at 6:7',
  externalEdit: { file: 'src/main.ts', line: 'describe(new Square(5));\n', place: 'src/main.ts:10:1' },
  agentEdit: { file: 'src/report.ts', old: '  return describeShape(new Square(3));', new: '  return describeShape(new Square(3)) + describeShape(new Square(4));', place: 'src/report.ts:5:41' },
  cartSymbols: ['class Cart src/cart.ts:4:1', 'constant cart src/main.ts:6:7'],
};

const PY: Expectations = {
  lang: 'py',
  skip: !testServersInstalled() && 'run npm run test:servers',
  describeCall: ['main.py', 9, 7],
  describeDefinition: ['fmt.py:4:5'],
  describeReferences: ['cart.py:1:17', 'cart.py:17:26', 'fmt.py:4:5', 'main.py:3:17', 'main.py:9:7', 'report.py:1:17'],
  declaration: 'fmt.py:4:5',
  describeCallers: ['cart.py:17:26 summary', 'main.py:9:7 (module) main.py'],
  totalPosition: ['cart.py', 12, 9],
  totalCallees: ['cart.py:14:16 sum', 'cart.py:14:16 sum', 'cart.py:14:16 sum', 'cart.py:14:22 area'],
  hoverLines: ['(method) def total(self: Self@Cart) -> float', 'Sum of the areas of every item.'],
  interfaceMember: ['shapes.py', 8, 9],
  areaImplementations: 'unsupported',
  keywordPosition: ['main.py', 6, 5],
  keywordNote: /6:5 is not on a name; used `cart` at 6:1, the nearest name on that line/,
  cartReferences: ['main.py:6:1', 'main.py:7:1', 'main.py:8:1', 'main.py:9:28'],
  blankLine: ['main.py', 5, 1],
  blankCandidate: 'cart at 6:1',
  externalEdit: { file: 'main.py', line: 'describe(Square(5))\n', place: 'main.py:10:1' },
  agentEdit: { file: 'report.py', old: 'from fmt import describe as describe_shape', new: 'from fmt import describe, describe as describe_shape', place: 'report.py:1:27' },
  cartSymbols: ['class Cart cart.py:5:7', 'variable cart main.py:6:1'],
};

const at = ([file_path, line, character]: [string, number, number]) => ({ file_path, line, character });

for (const x of [TS, PY]) {
  describe(`navigation tools through agent turns (${x.lang === 'ts' ? 'typescript-language-server' : 'pyright'})`, { skip: x.skip }, () => {
    const s = new NavigationSession();
    before(() => s.start(x.lang));
    after(() => s.stop());

    it('lsp_definition: by symbol name (the first call, on a cold server) and by position, the same one place with its source line', T, async () => {
      const byName = await s.ask('lsp_definition', { symbol: 'describe' });
      assert.deepEqual(places(byName), x.describeDefinition);
      assert.match(byName.text, /Note: describe is the function describe at /);
      const byPosition = await s.ask('lsp_definition', at(x.describeCall));
      assert.deepEqual(places(byPosition), x.describeDefinition);
      assertShown(byPosition, x.describeDefinition);
      assert.match(byPosition.text, /describe\(s: Shape\)/, 'the declaration line is shown');
      assert.match(byPosition.text, /answered after syncing the servers with the files on disk/);
    });

    it('lsp_references: every reference (the aliased import too), grouped by file, declaration marked; by name the same', T, async () => {
      const byPosition = await s.ask('lsp_references', at(x.describeCall));
      assert.deepEqual(places(byPosition), x.describeReferences);
      assertShown(byPosition, x.describeReferences);
      const value = byPosition.value as unknown as LocationsResult;
      assert.deepEqual(
        value.locations.filter((l) => l.declaration === true).map((l) => `${l.filePath}:${l.range.start.line + 1}:${l.range.start.character + 1}`),
        [x.declaration],
      );
      assert.match(byPosition.text, /← declaration/);
      const byName = await s.ask('lsp_references', { symbol: 'describe' });
      assert.deepEqual(places(byName), x.describeReferences);
    });

    it('lsp_implementation: the two implementations of the interface member (pyright: a clear unsupported error)', T, async () => {
      const byPosition = await s.ask('lsp_implementation', at(x.interfaceMember));
      const byName = await s.ask('lsp_implementation', { symbol: 'Shape.area' });
      if (x.areaImplementations === 'unsupported') {
        for (const answer of [byPosition, byName]) {
          assert.equal(answer.isError, true);
          assert.equal(answer.code, 'LSP_ACTION_UNSUPPORTED');
          assert.match(answer.text, /textDocument\/implementation/);
        }
        return;
      }
      assert.deepEqual(places(byPosition), x.areaImplementations);
      assert.deepEqual(places(byName), x.areaImplementations);
      assertShown(byName, x.areaImplementations);
    });

    it('lsp_call_hierarchy: incoming callers of the function, outgoing calls of the method; by name the same', T, async () => {
      const incoming = await s.ask('lsp_call_hierarchy', at(x.describeCall));
      assert.deepEqual(calls(incoming), x.describeCallers);
      assert.deepEqual(calls(await s.ask('lsp_call_hierarchy', { symbol: 'describe', direction: 'incoming' })), x.describeCallers);
      const outgoing = await s.ask('lsp_call_hierarchy', { ...at(x.totalPosition), direction: 'outgoing' });
      assert.deepEqual(calls(outgoing), x.totalCallees);
      assert.deepEqual(calls(await s.ask('lsp_call_hierarchy', { symbol: 'Cart.total', direction: 'outgoing' })), x.totalCallees);
      assert.match(outgoing.text, /→ method area \(/);
    });

    it('lsp_hover: signature and the first paragraph of the docs; by name the same', T, async () => {
      const byPosition = await s.ask('lsp_hover', at(x.totalPosition));
      const byName = await s.ask('lsp_hover', { symbol: 'Cart.total' });
      for (const answer of [byPosition, byName]) {
        assert.equal(answer.isError, false, answer.text);
        assert.equal((answer.value as unknown as HoverGetResult).found, true);
        for (const line of x.hoverLines) assert.ok(answer.text.split('\n').includes(line), `${line} in:\n${answer.text}`);
        assert.doesNotMatch(answer.text, /```|^---$/m, 'no Markdown fences or rules');
      }
    });

    it('lsp_workspace_symbols: the symbols matching the query, kind, name and place; never one that does not match', T, async () => {
      // pyright searches only the files it has parsed so far, and parses lazily after start: the
      // answer may list fewer at first (documented, and said in every answer), never others
      let listed: string[] = [];
      for (let turn = 0; turn < 20 && listed.length < x.cartSymbols.length; turn++) {
        const answer = await s.ask('lsp_workspace_symbols', { query: 'Cart' });
        assert.equal(answer.isError, false, answer.text);
        assert.ok(answer.text.includes(INDEXED_NOTE), answer.text);
        const symbols = (answer.value as { symbols: Array<{ name: string; kind: number; filePath: string; selectionRange: { start: { line: number; character: number } } }> }).symbols;
        const kinds: Record<number, string> = { 5: 'class', 13: 'variable', 14: 'constant' };
        listed = symbols.map((sy) => `${kinds[sy.kind] ?? sy.kind} ${sy.name} ${sy.filePath}:${sy.selectionRange.start.line + 1}:${sy.selectionRange.start.character + 1}`).sort();
        for (const line of listed) {
          assert.ok(x.cartSymbols.includes(line), `${line} is one of ${x.cartSymbols.join(', ')}`);
          const [kind, name, place] = line.split(' ');
          assert.ok(answer.text.includes(`${kind} ${name} — ${place}`), `${line} shown:\n${answer.text}`);
        }
        if (x.lang === 'ts') assert.deepEqual(listed, x.cartSymbols, 'tsserver searches the whole loaded project at once');
      }
      assert.deepEqual(listed, x.cartSymbols);
    });

    it('a wrong position: beside a name → the nearest name with a note; a blank line → an error listing candidates; an ambiguous name → candidates', T, async () => {
      const snapped = await s.ask('lsp_references', at(x.keywordPosition));
      assert.deepEqual(places(snapped), x.cartReferences);
      assert.match(snapped.text, x.keywordNote);
      const blank = await s.ask('lsp_references', at(x.blankLine));
      assert.equal(blank.isError, true);
      assert.equal(blank.code, 'LSP_ACTION_NO_SYMBOL');
      assert.match(blank.text, /there is no name on line 5/);
      assert.ok(blank.text.includes(x.blankCandidate), blank.text);
      const ambiguous = await s.ask('lsp_hover', { symbol: 'area' });
      assert.equal(ambiguous.isError, true);
      assert.equal(ambiguous.code, 'LSP_ACTION_NO_SYMBOL');
      assert.match(ambiguous.text, /area matches 3 declarations: .*Qualify it/);
      const missing = await s.ask('lsp_definition', { symbol: 'Cart.nope' });
      assert.equal(missing.code, 'LSP_ACTION_NO_SYMBOL');
      assert.match(missing.text, /no symbol named Cart\.nope in the workspace/);
    });

    it('500 call sites: the first 50 listed, the rest counted', T, async () => {
      const answer = await s.ask('lsp_references', { symbol: 'tick' });
      const value = answer.value as unknown as LocationsResult;
      assert.equal(value.total, TICK_CALLS + 2, 'the declaration, the import and every call');
      assert.equal(value.truncated, true);
      assert.equal(value.locations.length, 50);
      assert.match(answer.text, new RegExp(`: ${TICK_CALLS + 2} \\(first 50 listed\\) in 1 file`));
      assert.match(answer.text, new RegExp(`… ${TICK_CALLS + 2 - 50} more references not shown`));
    });

    it('edits show in the next answer: a change on disk to an open file, and the agent\'s own edit', T, async () => {
      appendFileSync(join(s.ws.root, x.externalEdit.file), x.externalEdit.line);
      const afterDisk = await s.ask('lsp_references', { symbol: 'describe' });
      assert.deepEqual(places(afterDisk), [...x.describeReferences, x.externalEdit.place].sort(byPlace));
      const read = { id: s.nextId('read'), name: 'read', arguments: { file_path: x.agentEdit.file } };
      const edit = { id: s.nextId('edit'), name: 'edit', arguments: { file_path: x.agentEdit.file, old_string: x.agentEdit.old, new_string: x.agentEdit.new } };
      const afterEdit = await s.ask('lsp_references', { symbol: 'describe' }, [read, edit]);
      assert.ok(places(afterEdit).includes(x.agentEdit.place), `${x.agentEdit.place} in ${places(afterEdit).join(', ')}`);
      assertShown(afterEdit, [x.agentEdit.place]);
    });
  });
}

/** File, then line, then column order of `path:line:col`. */
function byPlace(a: string, b: string): number {
  const [fa = '', la = '0', ca = '0'] = a.split(':');
  const [fb = '', lb = '0', cb = '0'] = b.split(':');
  return (fa < fb ? -1 : fa > fb ? 1 : 0) || Number(la) - Number(lb) || Number(ca) - Number(cb);
}
