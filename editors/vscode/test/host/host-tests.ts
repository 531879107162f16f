/**
 * Extension-host tests, run inside a real VS Code (code-server's bundled VS Code server, see
 * tests/vscode/run-vscode-tests.mjs) on a copy of examples/sample plus `src/messy.ts`. They drive
 * the extension only through the VS Code API and check the files on disk. The runner passes the
 * workspace's expectations through the environment of the VS Code server (inherited by the
 * extension host): DSH_VSCODE_TEST_OUT, a folder for the backend's process-group id.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension.ts';
import {
  api,
  disk,
  errorsOf,
  EXTENSION_ID,
  file,
  groupAlive,
  ours,
  recordBackend,
  root,
  runCommand,
  setContext,
  summary,
  test,
  tests,
  until,
  waitReady,
} from './host-support.ts';
import {
  brokenServerPath,
  eachProblemAndFixOnce,
  latencies,
  machineScopedServerPath,
  restartThenNewError,
  standardFormatting,
  standardOrganizeImports,
  standardRename,
  trustPrompt,
} from './issue20-tests.ts';

test('the folder’s own backend (node_modules/.bin) runs only after the user allowed it; the coexistence offer is made once', trustPrompt);

test('the Problems data holds the sample’s real errors, and only those', async () => {
  for (const rel of ['src/main.ts', 'src/report.ts', 'src/geometry.ts']) await vscode.window.showTextDocument(file(rel), { preview: false });
  await until('main.ts and report.ts diagnostics', () => errorsOf(file('src/main.ts')).length === 1 && errorsOf(file('src/report.ts')).length === 2);
  assert.deepEqual(summary(file('src/main.ts')), ["5:9 0 typescript TS2304 Cannot find name 'distance'."]);
  assert.deepEqual(summary(file('src/report.ts')), [
    "5:8 0 typescript TS2322 Type 'number' is not assignable to type 'string'.",
    "6:22 0 typescript TS2552 Cannot find name 'pointt'. Did you mean 'point'?",
  ]);
  assert.deepEqual(summary(file('src/geometry.ts')), []);
  // A first answer may be `pending` (the server has not settled); the feed asks again until fresh.
  await until('main.ts diagnostics to be fresh', () => api.freshness(file('src/main.ts')) === 'fresh');
  assert.deepEqual(summary(file('src/main.ts')), ["5:9 0 typescript TS2304 Cannot find name 'distance'."]);
  await vscode.window.showTextDocument(file('src/main.ts'));
  await until('the status bar to show the backend ready and fresh', () => api.statusBar().text.endsWith('dsh-lsp-actions') && /fresh/.test(api.statusBar().tooltip));
});

test('each problem once and each fix once, with VS Code’s built-in TypeScript extension active', eachProblemAndFixOnce);

test('the code action provider lists the missing-import quick fix; applying it writes the file and the error goes', async () => {
  const uri = file('src/main.ts');
  const [missing] = errorsOf(uri);
  assert.ok(missing);
  const fix = await ours(uri, missing.range, /^Add import from "\.\/geometry(\.js)?" \(dsh-lsp-actions\)$/);
  assert.equal(fix.kind?.value, 'quickfix');
  const before = disk('src/main.ts');
  await runCommand(fix);
  assert.notEqual(disk('src/main.ts'), before);
  assert.match(disk('src/main.ts'), /^import \{ distance \} from ['"]\.\/geometry(\.js)?['"];?$/m);
  await until('the error to leave the Problems data', () => errorsOf(uri).length === 0);
  const document = await vscode.workspace.openTextDocument(uri);
  await until('the editor to show the new text from disk', () => document.getText() === disk('src/main.ts'));
});

test('Format Document formats the file on disk through the backend', async () => {
  const uri = file('src/messy.ts');
  await vscode.window.showTextDocument(uri);
  await vscode.commands.executeCommand('dshLspActions.formatDocument');
  assert.match(disk('src/messy.ts'), /^export const answer = 42;$/m);
  assert.match(disk('src/messy.ts'), /^export function twice\(n: number\) \{/m);
  const document = await vscode.workspace.openTextDocument(uri);
  await until('the editor to show the formatted text', () => document.getText() === disk('src/messy.ts'));
});

test('VS Code’s Format Document, Format Selection and format on save go through the backend (format.edits), pinned to the buffer', standardFormatting);

test('a dirty buffer is saved before a write, and the write uses the saved text', async () => {
  const uri = file('src/messy.ts');
  const editor = await vscode.window.showTextDocument(uri);
  await editor.edit((edit) => edit.insert(new vscode.Position(0, 0), 'export   const  extra=1 ;\n'));
  assert.equal(editor.document.isDirty, true);
  await vscode.commands.executeCommand('dshLspActions.formatDocument');
  assert.equal(editor.document.isDirty, false);
  assert.match(disk('src/messy.ts'), /^export const extra = 1;\nexport const answer = 42;$/m);
});

test('typing checks the unsaved buffer (debounced) and the Problems data follows it', async () => {
  const uri = file('src/geometry.ts');
  const editor = await vscode.window.showTextDocument(uri);
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  await editor.edit((edit) => edit.insert(end, '\nexport const broken: number = "text";\n'));
  const added = await until('the unsaved error to show', () => errorsOf(uri).find((d) => String(d.code) === 'TS2322'));
  assert.equal(added.range.start.line, editor.document.lineCount - 2);
  assert.equal(disk('src/geometry.ts').includes('broken'), false, 'nothing was saved');
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await until('the error to go with the reverted text', () => errorsOf(uri).length === 0);
});

test('Organize Imports removes an unused import on disk', async () => {
  writeFileSync(join(root, 'src', 'imports.ts'), "import { midpoint, distance } from './geometry.js';\n\nexport const d = distance;\n");
  await vscode.window.showTextDocument(file('src/imports.ts'));
  await vscode.commands.executeCommand('dshLspActions.organizeImports');
  assert.match(disk('src/imports.ts'), /^import \{ distance \} from '\.\/geometry\.js';$/m);
});

test('Show Sessions lists the choices (here: no live DSH session, so only the backend preset)', async () => {
  await vscode.commands.executeCommand('dshLspActions.showSessions');
  const labels = await until('the sessions picker', () => api.sessionsShown());
  assert.deepEqual(labels, [`$(circle-slash) No session — ${vscode.workspace.workspaceFolders?.[0]?.name}`]);
  await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  await until('the picker to close', () => api.sessionsShown() === undefined);
});

const renderHover = (h: vscode.Hover): string => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('\n');

test('opt-in hover: enabling dshLspActions.hover.enabled adds the backend’s hover', async () => {
  const uri = file('src/geometry.ts');
  const text = disk('src/geometry.ts').split('\n');
  const line = text.findIndex((l) => l.includes('function midpoint'));
  const position = new vscode.Position(line, (text[line] ?? '').indexOf('midpoint') + 2);
  const hovers = async (): Promise<vscode.Hover[]> => (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  const before = (await hovers()).length;
  const config = vscode.workspace.getConfiguration('dshLspActions');
  await config.update('hover.enabled', true, vscode.ConfigurationTarget.Workspace);
  try {
    const shown = await until('one more hover, from the backend', async () => {
      const now = await hovers();
      return now.length === before + 1 ? now : undefined;
    });
    assert.ok(shown.some((h) => /function midpoint\(a: Point, b: Point\): Point/.test(renderHover(h))), shown.map(renderHover).join(' | '));
  } finally {
    await config.update('hover.enabled', undefined, vscode.ConfigurationTarget.Workspace);
  }
  await until('the backend’s hover to go when turned off', async () => (await hovers()).length === before);
});

test('Rename Symbol renames across both files', async () => {
  const text = disk('src/geometry.ts').split('\n');
  const line = text.findIndex((l) => l.includes('function distance'));
  const character = (text[line] ?? '').indexOf('distance');
  await vscode.commands.executeCommand('dshLspActions.renameSymbol', { uri: file('src/geometry.ts').toString(), position: { line, character }, newName: 'euclid' });
  assert.match(disk('src/geometry.ts'), /export function euclid\(/);
  assert.match(disk('src/main.ts'), /import \{ euclid \} from/);
  assert.match(disk('src/main.ts'), /return euclid\(\{ x: 0/);
  await until('no new errors after the rename', () => errorsOf(file('src/main.ts')).length === 0 && errorsOf(file('src/geometry.ts')).length === 0);
});

test('VS Code’s Rename Symbol (F2) goes through the backend (rename.prepare, rename.edits) across files', standardRename);

test('VS Code’s Source Action menu lists our Organize Imports once, marked, and it writes through the backend', standardOrganizeImports);

test('with dshLspActions.sandbox read-only a quick fix is refused, the user is told, and nothing changes', async () => {
  const pid = api.backendPid();
  await vscode.workspace.getConfiguration('dshLspActions').update('sandbox', 'read-only', vscode.ConfigurationTarget.Workspace);
  recordBackend(await waitReady(pid));
  const uri = file('src/report.ts');
  await vscode.window.showTextDocument(uri);
  const typo = await until('the misspelling error', () => errorsOf(uri).find((d) => String(d.code) === 'TS2552'));
  const fix = await ours(uri, typo.range, /^Change spelling to 'point' \(dsh-lsp-actions\)$/);
  const before = disk('src/report.ts');
  const told = api.notifications.length;
  const result = await runCommand(fix);
  assert.equal(result, undefined);
  assert.equal(disk('src/report.ts'), before);
  const notice = api.notifications.slice(told).find((n) => n.level === 'error');
  assert.ok(notice, 'the user was told');
  assert.match(notice.message, /LSP_ACTION_READ_ONLY/);
  assert.match(notice.message, /Nothing was changed/);
  await vscode.workspace.getConfiguration('dshLspActions').update('sandbox', undefined, vscode.ConfigurationTarget.Workspace);
  recordBackend(await waitReady(api.backendPid()));
});

test('a serverPath that does not exist: the user is told how to configure it; fixing it starts the backend', async () => {
  const told = api.notifications.length;
  await vscode.workspace.getConfiguration('dshLspActions').update('serverPath', '/nonexistent/dsh-lsp-actions', vscode.ConfigurationTarget.Global);
  await until('the backend to be missing', () => api.backendState() === 'missing');
  assert.match(api.statusBar().text, /not found/);
  const notice = api.notifications.slice(told).find((n) => /serverPath is set to \/nonexistent\/dsh-lsp-actions/.test(n.message));
  assert.ok(notice, JSON.stringify(api.notifications.slice(told)));
  await vscode.workspace.getConfiguration('dshLspActions').update('serverPath', undefined, vscode.ConfigurationTarget.Global);
  recordBackend(await waitReady());
});

test('a broken serverPath (the backend run by Node 20): a bounded number of tries and ONE notification with the backend’s own reason', brokenServerPath);

test('serverPath is machine-scoped: a workspace’s .vscode/settings.json cannot choose the executable', machineScopedServerPath);

test('after Restart Backend, a file open before the restart shows a NEW error (no frozen diagnostics), and nothing is fresh that the new backend did not say', restartThenNewError);

test('a killed backend shows as crashed, restarts, and the next action works', async () => {
  const pid = api.backendPid();
  assert.ok(pid);
  const seen = api.statusHistory.length;
  process.kill(pid, 'SIGKILL');
  // The crashed state lasts as long as the backoff (1 s first): read it from the item's history.
  const crashed = await until('the status bar to say crashed', () => api.statusHistory.slice(seen).find((s) => /crashed/.test(s.text)));
  assert.match(crashed.tooltip, /restarting in \d+ s/);
  assert.match(crashed.tooltip, /Restart Backend/);
  const restarted = await waitReady(pid);
  assert.ok(api.statusBar().text.startsWith('$(check)') || /pending|stale/.test(api.statusBar().text), api.statusBar().text);
  recordBackend(restarted);
  await until('the old backend’s process group to be gone', () => !groupAlive(pid));
  const uri = file('src/report.ts');
  const typo = await until('the misspelling error after the restart', () => errorsOf(uri).find((d) => String(d.code) === 'TS2552'));
  const fix = await ours(uri, typo.range, /^Change spelling to 'point' \(dsh-lsp-actions\)$/);
  await runCommand(fix);
  assert.match(disk('src/report.ts'), /\$\{point\.y\}/);
  await until('the misspelling to leave the Problems data', () => !errorsOf(uri).some((d) => String(d.code) === 'TS2552'));
});

test('latencies against the built-in TypeScript (first diagnostics, edit → diagnostics, quick fix applied)', latencies);

/** The entry point VS Code calls (extensionTestsPath). Throws when a test failed. */
export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is loaded`);
  setContext({ api: await extension.activate(), root: folder.uri.fsPath, extensionDir: extension.extensionPath });
  let failed = 0;
  // DSH_VSCODE_HOST_ONLY=<regex>: only the tests it matches, after the first (which starts the backend).
  const only = process.env['DSH_VSCODE_HOST_ONLY'];
  const chosen = only === undefined || only === '' ? tests : tests.filter((t, i) => i === 0 || new RegExp(only).test(t.name));
  for (const { name, fn } of chosen) {
    const started = Date.now();
    try {
      await fn();
      console.log(`ok - ${name} (${Date.now() - started} ms)`);
    } catch (error) {
      failed += 1;
      console.log(`not ok - ${name}\n  ${(error as Error).stack ?? String(error)}`);
    }
  }
  console.log(`${chosen.length - failed} passed, ${failed} failed`);
  if (failed > 0) throw new Error(`${failed} of ${chosen.length} extension-host tests failed`);
}
