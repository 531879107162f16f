/**
 * Extension-host tests, run inside a real VS Code (code-server's bundled VS Code server, see
 * tests/vscode/run-vscode-tests.mjs) on a copy of examples/sample plus `src/messy.ts`. They drive
 * the extension only through the VS Code API and check the files on disk. The runner passes the
 * workspace's expectations through the environment of the VS Code server (inherited by the
 * extension host): DSH_VSCODE_TEST_OUT, a folder for the backend's process-group id.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension.ts';

const EXTENSION_ID = 'dsh-lsp-actions.dsh-lsp-actions-vscode';
let EXTENSION_DIR = '';
const tests: { name: string; fn: () => Promise<void> }[] = [];
const test = (name: string, fn: () => Promise<void>): void => {
  tests.push({ name, fn });
};

let api: ExtensionApi;
let root: string;
const file = (rel: string): vscode.Uri => vscode.Uri.file(join(root, rel));
const disk = (rel: string): string => readFileSync(join(root, rel), 'utf8');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value other than undefined/false; fails with `what` after `ms`. */
async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last === undefined ? '' : `: ${String(last)}`}`);
    await sleep(250);
  }
}

const errorsOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
const summary = (uri: vscode.Uri): string[] =>
  vscode.languages
    .getDiagnostics(uri)
    .map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.source} ${String(d.code)} ${d.message}`)
    .sort();

async function codeActions(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
}

async function ours(uri: vscode.Uri, range: vscode.Range, title: RegExp): Promise<vscode.CodeAction> {
  return until(`a code action ${title} from the backend`, async () =>
    (await codeActions(uri, range)).find((a) => title.test(a.title) && a.command?.command === 'dshLspActions.applyCodeAction'),
  );
}

async function runCommand(action: vscode.CodeAction): Promise<unknown> {
  assert.ok(action.command);
  return vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

async function waitReady(previousPid?: number): Promise<number> {
  return until('the backend to be ready', () => {
    const pid = api.backendPid();
    return api.backendState() === 'ready' && pid !== undefined && pid !== previousPid ? pid : undefined;
  });
}

function recordBackend(pid: number): void {
  const out = process.env['DSH_VSCODE_TEST_OUT'];
  if (out !== undefined) writeFileSync(join(out, 'backend-pgids'), `${pid}\n`, { flag: 'a' });
}

test('the folder’s own backend (node_modules/.bin) runs only after the user allowed it; the coexistence offer is made once', async () => {
  const id = `trust:${root}`;
  const question = await until('the trust prompt', () => api.prompts.find((q) => q.id === id));
  assert.match(question.message, /contains its own dsh-lsp-actions backend/);
  assert.match(question.message, /node_modules\/\.bin\/dsh-lsp-actions/);
  assert.deepEqual(question.choices, ['Allow', "Don't Allow"]);
  await sleep(1500);
  assert.equal(api.backendPid(), undefined, 'nothing runs before the user answered');
  assert.equal(api.backendAttempts(), 0);
  assert.ok(api.answerPrompt(id, 'Allow'));
  recordBackend(await waitReady());
  assert.equal(api.backendSource(), 'workspace');
  assert.equal(api.prompts.filter((q) => q.id === id).length, 1, 'asked once');
  // VS Code's built-in TypeScript extension is present here: the first-run offer hands TS/JS to us.
  await until('the coexistence offer', () => api.prompts.find((q) => q.id === 'coexistence'));
  assert.ok(api.answerPrompt('coexistence', 'Use dsh-lsp-actions'));
  await until('typescript.validate.enable off in the workspace', () =>
    vscode.workspace.getConfiguration('typescript').inspect<boolean>('validate.enable')?.workspaceValue === false &&
    vscode.workspace.getConfiguration('editor', { languageId: 'typescript' }).get('defaultFormatter') === EXTENSION_ID,
  );
});

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

test('each problem once and each fix once, with VS Code’s built-in TypeScript extension active', async () => {
  const uri = file('src/main.ts');
  const builtin = vscode.extensions.getExtension('vscode.typescript-language-features');
  assert.ok(builtin, 'the built-in TypeScript extension is installed');
  await until('the built-in TypeScript extension to be active', () => builtin.isActive);
  const all = vscode.languages.getDiagnostics(uri);
  assert.equal(all.filter((d) => /Cannot find name 'distance'/.test(d.message)).length, 1, JSON.stringify(all));
  const [missing] = errorsOf(uri);
  assert.ok(missing);
  await ours(uri, missing.range, /^Add import from "\.\/geometry(\.js)?" \(dsh-lsp-actions\)$/);
  const listed = await codeActions(uri, missing.range);
  const titles = listed.map((a) => a.title);
  assert.equal(new Set(titles).size, titles.length, `no title twice: ${titles.join(' | ')}`);
  const imports = listed.filter((a) => /Add import from "\.\/geometry/.test(a.title));
  assert.equal(imports.length, 1, titles.join(' | '));
  assert.equal(imports[0]?.command?.command, 'dshLspActions.applyCodeAction', 'the one listed is ours (it writes through the backend)');
});

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

test('VS Code’s Format Document, Format Selection and format on save go through the backend (format.edits), pinned to the buffer', async () => {
  writeFileSync(join(root, 'src', 'messy2.ts'), 'export   const  a=1 ;\nexport   const  b=2 ;\n');
  const uri = file('src/messy2.ts');
  const editor = await vscode.window.showTextDocument(uri);
  let runs = api.actionsRun.length;
  await vscode.commands.executeCommand('editor.action.formatDocument');
  await until('the buffer to be formatted', () => editor.document.getText() === 'export const a = 1;\nexport const b = 2;\n');
  assert.ok(api.actionsRun.slice(runs).includes('format.edits'), api.actionsRun.slice(runs).join(','));
  assert.equal(disk('src/messy2.ts'), 'export   const  a=1 ;\nexport   const  b=2 ;\n', 'the provider edits the buffer; nothing is written behind it');
  await editor.document.save();
  // Format Selection: only the selected line changes.
  await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), 'export   const  c=3 ;\nexport   const  d=4 ;\n'));
  editor.selection = new vscode.Selection(2, 0, 2, 21);
  runs = api.actionsRun.length;
  await vscode.commands.executeCommand('editor.action.formatSelection');
  await until('the selected line to be formatted', () => editor.document.lineAt(2).text === 'export const c = 3;');
  assert.equal(editor.document.lineAt(3).text, 'export   const  d=4 ;');
  assert.ok(api.actionsRun.slice(runs).includes('format.edits'));
  // Format on save: the saved file is formatted.
  const config = vscode.workspace.getConfiguration('editor', { languageId: 'typescript' });
  await config.update('formatOnSave', true, vscode.ConfigurationTarget.Workspace, true);
  try {
    runs = api.actionsRun.length;
    assert.ok(await editor.document.save());
    assert.equal(disk('src/messy2.ts'), 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\n');
    assert.ok(api.actionsRun.slice(runs).includes('format.edits'));
  } finally {
    await config.update('formatOnSave', undefined, vscode.ConfigurationTarget.Workspace, true);
  }
});

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

test('VS Code’s Rename Symbol (F2) goes through the backend (rename.prepare, rename.edits) across files', async () => {
  writeFileSync(join(root, 'src', 'uses-midpoint.ts'), "import { midpoint } from './geometry.js';\n\nexport const m = midpoint({ x: 0, y: 0 }, { x: 2, y: 2 });\n");
  const uri = file('src/geometry.ts');
  const text = disk('src/geometry.ts').split('\n');
  const line = text.findIndex((l) => l.includes('function midpoint'));
  const position = new vscode.Position(line, (text[line] ?? '').indexOf('midpoint') + 1);
  await vscode.window.showTextDocument(uri);
  const runs = api.actionsRun.length;
  const prepared = await vscode.commands.executeCommand<{ range: vscode.Range; placeholder: string }>('vscode.prepareRename', uri, position);
  assert.equal(prepared?.placeholder, 'midpoint');
  const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>('vscode.executeDocumentRenameProvider', uri, position, 'center');
  assert.ok(edit);
  // VS Code resolves the location again (prepareRename) before asking for the edits.
  const renames = api.actionsRun.slice(runs).filter((a) => a.startsWith('rename'));
  assert.ok(renames.includes('rename.prepare') && renames.at(-1) === 'rename.edits', renames.join(','));
  const files = edit.entries().map(([u]) => vscode.workspace.asRelativePath(u)).sort();
  assert.deepEqual(files, ['src/geometry.ts', 'src/uses-midpoint.ts']);
  assert.ok(await vscode.workspace.applyEdit(edit));
  for (const [u] of edit.entries()) {
    const document = await vscode.workspace.openTextDocument(u);
    if (document.isDirty) assert.ok(await document.save(), `saved ${u.fsPath}`);
  }
  assert.match(disk('src/geometry.ts'), /export function center\(/);
  await until('uses-midpoint.ts renamed on disk', () => /import \{ center \} from/.test(disk('src/uses-midpoint.ts')));
});

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

test('a broken serverPath (the backend run by Node 20): a bounded number of tries and ONE notification with the backend’s own reason', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'broken-backend-'));
  const wrapper = join(dir, 'dsh-lsp-actions');
  const main = join(EXTENSION_DIR, '..', '..', 'lib', 'cli', 'main.js');
  writeFileSync(wrapper, `#!/bin/sh\nexec /usr/bin/node "${main}" "$@"\n`);
  chmodSync(wrapper, 0o755);
  const told = api.notifications.length;
  await vscode.workspace.getConfiguration('dshLspActions').update('serverPath', wrapper, vscode.ConfigurationTarget.Global);
  try {
    await until('the backend to give up', () => api.backendState() === 'failed' && api.backendSource() === 'setting');
    assert.equal(api.backendAttempts(), 4);
    const notices = (): string[] => api.notifications.slice(told).filter((n) => n.level === 'error').map((n) => n.message);
    assert.equal(notices().length, 1, notices().join('\n'));
    assert.match(notices()[0] ?? '', /error: dsh-lsp-actions needs Node 22\.19 or newer; this is Node 20\./);
    assert.match(notices()[0] ?? '', /Put such a Node first on the PATH/);
    assert.match(api.statusBar().text, /failed to start/);
    await sleep(8000);
    assert.equal(api.backendAttempts(), 4, 'no more tries');
    assert.equal(notices().length, 1, 'told once');
  } finally {
    await vscode.workspace.getConfiguration('dshLspActions').update('serverPath', undefined, vscode.ConfigurationTarget.Global);
  }
  recordBackend(await waitReady());
});

test('serverPath is machine-scoped: a workspace’s .vscode/settings.json cannot choose the executable', async () => {
  mkdirSync(join(root, '.vscode'), { recursive: true });
  writeFileSync(join(root, '.vscode', 'settings.json'), JSON.stringify({ 'dshLspActions.serverPath': '/tmp/evil/dsh-lsp-actions' }));
  await until('VS Code to see the workspace file', () => vscode.workspace.getConfiguration('dshLspActions').inspect('serverPath') !== undefined);
  await sleep(3000);
  recordBackend(await waitReady());
  assert.equal(api.backendSource(), 'workspace', 'still the allowed workspace backend, not the workspace setting');
  assert.equal(api.notifications.filter((n) => /evil/.test(n.message)).length, 0);
  rmSync(join(root, '.vscode', 'settings.json'));
  await sleep(1000);
  recordBackend(await waitReady());
});

test('after Restart Backend, a file open before the restart shows a NEW error (no frozen diagnostics), and nothing is fresh that the new backend did not say', async () => {
  const uri = file('src/geometry.ts');
  const editor = await vscode.window.showTextDocument(uri);
  await until('geometry.ts fresh before the restart', () => api.freshness(uri) === 'fresh');
  // Raise the old backend's document version well above where a new backend starts counting.
  for (let i = 0; i < 3; i++) {
    const at = editor.document.lineAt(editor.document.lineCount - 1).range.end;
    await editor.edit((edit) => edit.insert(at, `\nexport const before${i}: number = "x";\n`));
    await until(`error ${i} before the restart`, () => errorsOf(uri).some((d) => String(d.code) === 'TS2322'));
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await until(`error ${i} gone before the restart`, () => errorsOf(uri).length === 0 && api.freshness(uri) === 'fresh');
  }
  const before = api.backendEpoch();
  const pid = api.backendPid();
  await vscode.commands.executeCommand('dshLspActions.restart');
  const pidAfter = await waitReady(pid);
  recordBackend(pidAfter);
  assert.notEqual(api.backendEpoch(), before);
  const shown = api.freshnessEpoch(uri);
  assert.ok(api.freshness(uri) !== 'fresh' || shown === api.backendEpoch(), `fresh only from the new backend (epoch ${String(shown)} vs ${String(api.backendEpoch())})`);
  await until('geometry.ts fresh from the new backend', () => api.freshness(uri) === 'fresh' && api.freshnessEpoch(uri) === api.backendEpoch());
  // Several edits, so the old backend's remembered version is above the new backend's first ones.
  const end = editor.document.lineAt(editor.document.lineCount - 1).range.end;
  await editor.edit((edit) => edit.insert(end, '\nexport const late: number = "late";\n'));
  const added = await until('the new error after the restart', () => errorsOf(uri).find((d) => String(d.code) === 'TS2322'));
  assert.equal(added.range.start.line, editor.document.lineCount - 2);
  await vscode.commands.executeCommand('workbench.action.files.revert');
  await until('the error to go with the reverted text', () => errorsOf(uri).length === 0);
});

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

/** Milliseconds from `start` until `check` holds (polling every 20 ms). */
async function timeUntil(what: string, start: number, check: () => boolean | Promise<boolean>): Promise<number> {
  const deadline = Date.now() + 120_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  return Date.now() - start;
}

/**
 * Latencies as a user meets them, ours and VS Code's built-in TypeScript on the same project in
 * the same run: first diagnostics of a newly opened file, edit → diagnostics, quick fix applied
 * (the editor shows the fixed text). Printed as `[latency]` lines for docs/benchmarks.md; the
 * test asserts only that each step happened.
 */
test('latencies against the built-in TypeScript (first diagnostics, edit → diagnostics, quick fix applied)', async () => {
  // Its own import target: earlier tests renamed geometry.ts's functions.
  writeFileSync(join(root, 'src', 'latency-lib.ts'), 'export function spread(a: number, b: number): number {\n  return b - a;\n}\n');
  const body = 'export const d = spread(1, 4);\n';
  const figures: string[] = [];
  const measure = async (who: 'ours' | 'builtin', rel: string): Promise<void> => {
    const source = who === 'ours' ? 'typescript' : 'ts';
    const errs = (u: vscode.Uri): vscode.Diagnostic[] => vscode.languages.getDiagnostics(u).filter((d) => d.source === source && d.severity === vscode.DiagnosticSeverity.Error);
    writeFileSync(join(root, rel), body);
    const uri = file(rel);
    let start = Date.now();
    const editor = await vscode.window.showTextDocument(uri);
    const first = await timeUntil(`${who} first diagnostics`, start, () => errs(uri).length === 1);
    start = Date.now();
    await editor.edit((edit) => edit.insert(new vscode.Position(1, 0), 'export const n: number = "text";\n'));
    const edited = await timeUntil(`${who} edit → diagnostics`, start, () => errs(uri).length === 2);
    await editor.edit((edit) => edit.delete(new vscode.Range(1, 0, 2, 0)));
    await editor.document.save();
    await timeUntil(`${who} back to one error`, Date.now(), () => errs(uri).length === 1);
    const [missing] = errs(uri);
    assert.ok(missing);
    start = Date.now();
    const listed = await codeActions(uri, missing.range);
    const fix = listed.find((a) => /^Add import from "\.\/latency-lib(\.js)?"/.test(a.title) && (who === 'ours') === (a.command?.command === 'dshLspActions.applyCodeAction'));
    assert.ok(fix, `${who}: ${listed.map((a) => a.title).join(' | ')}`);
    const listMs = Date.now() - start;
    if (fix.edit !== undefined) assert.ok(await vscode.workspace.applyEdit(fix.edit));
    if (fix.command !== undefined) await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const commandMs = Date.now() - start;
    const applied = await timeUntil(`${who} quick fix applied`, start, () => /^import \{ spread \}/m.test(editor.document.getText()));
    const gone = await timeUntil(`${who} error gone`, start, () => errs(uri).length === 0);
    figures.push(`${who}: first diagnostics ${first} ms; edit → diagnostics ${edited} ms; quick fix applied ${applied} ms (listing ${listMs} ms, command ${commandMs} ms, error gone ${gone} ms)`);
    if (editor.document.isDirty) await editor.document.save();
  };
  await measure('ours', 'src/latency-ours.ts');
  const ts = vscode.workspace.getConfiguration('typescript');
  await ts.update('validate.enable', true, vscode.ConfigurationTarget.Workspace);
  try {
    await measure('builtin', 'src/latency-builtin.ts');
  } finally {
    await ts.update('validate.enable', false, vscode.ConfigurationTarget.Workspace);
  }
  for (const line of figures) console.log(`[latency] ${line}`);
});

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The entry point VS Code calls (extensionTestsPath). Throws when a test failed. */
export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  root = folder.uri.fsPath;
  const extension = vscode.extensions.getExtension<ExtensionApi>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is loaded`);
  EXTENSION_DIR = extension.extensionPath;
  api = await extension.activate();
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
