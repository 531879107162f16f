/**
 * Extension-host tests of issue 20 (registered in order by host-tests.ts): the trust prompt and
 * the coexistence offer, each problem and fix once next to the built-in TypeScript, VS Code's own
 * Format / format on save / F2 through the backend, a broken serverPath, the machine-scoped
 * serverPath, a restart that must not freeze diagnostics, and latencies against the built-in.
 */
import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { api, codeActions, disk, errorsOf, EXTENSION_DIR, EXTENSION_ID, file, ours, recordBackend, root, sleep, until, waitReady } from './host-support.ts';

/** The folder’s own backend (node_modules/.bin) runs only after the user allowed it; the coexistence offer is made once. */
export async function trustPrompt(): Promise<void> {
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
}

/** Each problem once and each fix once, with VS Code’s built-in TypeScript extension active. */
export async function eachProblemAndFixOnce(): Promise<void> {
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
}

/** VS Code’s Format Document, Format Selection and format on save go through the backend (format.edits), pinned to the buffer. */
export async function standardFormatting(): Promise<void> {
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
}

/** VS Code’s Rename Symbol (F2) goes through the backend (rename.prepare, rename.edits) across files. */
export async function standardRename(): Promise<void> {
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
}

/** VS Code's Source Action menu / Organize Imports lists ours (marked), and choosing it writes through the backend. */
export async function standardOrganizeImports(): Promise<void> {
  writeFileSync(join(root, 'src', 'oi-lib.ts'), 'export const one = 1;\nexport const two = 2;\n');
  writeFileSync(join(root, 'src', 'unused-import.ts'), "import { one, two } from './oi-lib.js';\n\nexport const e = one;\n");
  const uri = file('src/unused-import.ts');
  await vscode.window.showTextDocument(uri);
  await until('unused-import.ts checked', () => api.freshness(uri) === 'fresh');
  const runs = api.actionsRun.length;
  const start = new vscode.Range(0, 0, 0, 0);
  let seen: string[] = [];
  const listed = await until(
    'our Organize Imports among the source actions',
    async () => {
      const actions = (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, start, vscode.CodeActionKind.SourceOrganizeImports.value)) ?? [];
      seen = actions.map((a) => `${a.title} [${a.kind?.value ?? ''}]`);
      return actions.some((a) => a.title.endsWith(' (dsh-lsp-actions)')) ? actions : undefined;
    },
    30_000,
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}; listed: ${seen.join(' | ')}; runs: ${api.actionsRun.slice(runs).join(',')}`);
  });
  const mine = listed.filter((a) => a.title.endsWith(' (dsh-lsp-actions)'));
  assert.equal(mine.length, 1, listed.map((a) => a.title).join(' | '));
  const [organize] = mine;
  assert.ok(organize?.kind !== undefined && vscode.CodeActionKind.SourceOrganizeImports.contains(organize.kind), String(organize?.kind?.value));
  assert.ok(organize.command);
  assert.equal(organize.command.command, 'dshLspActions.organizeImports');
  await vscode.commands.executeCommand(organize.command.command, ...(organize.command.arguments ?? []));
  assert.match(disk('src/unused-import.ts'), /^import \{ one \} from '\.\/oi-lib\.js';$/m);
  assert.ok(api.actionsRun.slice(runs).includes('organizeImports'), api.actionsRun.slice(runs).join(','));
}

/** A broken serverPath (the backend run by Node 20): a bounded number of tries and ONE notification with the backend’s own reason. */
export async function brokenServerPath(): Promise<void> {
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
}

/** ServerPath is machine-scoped: a workspace’s .vscode/settings.json cannot choose the executable. */
export async function machineScopedServerPath(): Promise<void> {
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
}

/** After Restart Backend, a file open before the restart shows a NEW error (no frozen diagnostics), and nothing is fresh that the new backend did not say. */
export async function restartThenNewError(): Promise<void> {
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
}

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
export async function latencies(): Promise<void> {
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
}
