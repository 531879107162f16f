/**
 * What the extension-host test modules share: the registry of tests (run in registration order
 * by host-tests.ts), the extension's test API and the workspace folder once known, and helpers
 * that poll VS Code state (never fixed sleeps for a result).
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { ExtensionApi } from '../../src/extension.ts';

export const EXTENSION_ID = 'dsh-lsp-actions.dsh-lsp-actions-vscode';
export let EXTENSION_DIR = '';
export const tests: { name: string; fn: () => Promise<void> }[] = [];
export const test = (name: string, fn: () => Promise<void>): void => {
  tests.push({ name, fn });
};

export let api: ExtensionApi;
export let root: string;
export const file = (rel: string): vscode.Uri => vscode.Uri.file(join(root, rel));
export const disk = (rel: string): string => readFileSync(join(root, rel), 'utf8');
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls until `check` returns a value other than undefined/false; fails with `what` after `ms`. */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, ms = 90_000): Promise<T> {
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

export const errorsOf = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);
export const summary = (uri: vscode.Uri): string[] =>
  vscode.languages
    .getDiagnostics(uri)
    .map((d) => `${d.range.start.line}:${d.range.start.character} ${d.severity} ${d.source} ${String(d.code)} ${d.message}`)
    .sort();

export async function codeActions(uri: vscode.Uri, range: vscode.Range): Promise<vscode.CodeAction[]> {
  return (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, range)) ?? [];
}

export async function ours(uri: vscode.Uri, range: vscode.Range, title: RegExp): Promise<vscode.CodeAction> {
  return until(`a code action ${title} from the backend`, async () =>
    (await codeActions(uri, range)).find((a) => title.test(a.title) && a.command?.command === 'dshLspActions.applyCodeAction'),
  );
}

export async function runCommand(action: vscode.CodeAction): Promise<unknown> {
  assert.ok(action.command);
  return vscode.commands.executeCommand(action.command.command, ...(action.command.arguments ?? []));
}

export async function waitReady(previousPid?: number): Promise<number> {
  return until('the backend to be ready', () => {
    const pid = api.backendPid();
    return api.backendState() === 'ready' && pid !== undefined && pid !== previousPid ? pid : undefined;
  });
}

export function recordBackend(pid: number): void {
  const out = process.env['DSH_VSCODE_TEST_OUT'];
  if (out !== undefined) writeFileSync(join(out, 'backend-pgids'), `${pid}\n`, { flag: 'a' });
}

/**
 * Sets what run() learned: the extension's API, the folder and the extension's own folder.
 * @param context the values
 */
export function setContext(context: { api: ExtensionApi; root: string; extensionDir: string }): void {
  api = context.api;
  root = context.root;
  EXTENSION_DIR = context.extensionDir;
}

export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}
