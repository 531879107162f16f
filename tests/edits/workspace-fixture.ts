/**
 * Throw-away workspaces for write-path tests: a fresh temp directory (realpath'd), files written
 * with node:fs (set-up and inspection only; the code under test writes through `ctx.fs`), and
 * small builders for normalised workspace edits.
 */
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FileTextEdits, NormalizedWorkspaceEdit, TextEdit, WorkspaceEditStep } from '../../src/lsp/engine-types.ts';

/** A temp workspace. */
export interface Workspace {
  root: string;
  /** @returns the absolute path of `name` in the workspace */
  path(name: string): string;
  /** @returns the file decoded as UTF-8, exactly (a BOM shows as \uFEFF) */
  read(name: string): string;
  write(name: string, content: string): void;
  exists(name: string): boolean;
  remove(): void;
}

/**
 * @param files initial files, relative name → content
 * @returns the workspace
 */
export function makeWorkspace(files: Record<string, string> = {}): Workspace {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'lsp-actions-edits-')));
  const path = (name: string): string => join(root, name);
  const ws: Workspace = {
    root,
    path,
    read: (name) => readFileSync(path(name)).toString('utf8'),
    write: (name, content) => writeFileSync(path(name), content),
    exists: (name) => existsSync(path(name)),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const [name, content] of Object.entries(files)) ws.write(name, content);
  return ws;
}

/**
 * @returns a text edit replacing the zero-based range with `newText`
 */
export function replace(sl: number, sc: number, el: number, ec: number, newText: string): TextEdit {
  return { range: { start: { line: sl, character: sc }, end: { line: el, character: ec } }, newText };
}

/**
 * @param path absolute file path
 * @param edits text edits
 * @returns one `FileTextEdits` step
 */
export function fileEdits(path: string, ...edits: TextEdit[]): FileTextEdits {
  return { kind: 'edit', path, edits };
}

/**
 * @param steps ordered steps
 * @returns the normalised workspace edit
 */
export function workspaceEdit(...steps: WorkspaceEditStep[]): NormalizedWorkspaceEdit {
  return { steps };
}
