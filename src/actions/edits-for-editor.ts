/**
 * Read-only counterparts of `format` and `rename` for an editor that applies edits itself (VS
 * Code's Format Document / format on save / F2 providers must return edits, not write files):
 * `format.edits`, `rename.prepare` and `rename.edits`. They take the editor's unsaved `text`, run
 * the same server requests as the write actions, and return the edits with, per file, the
 * SHA-256 of the exact text the server computed them against (`basisSha256`, when known), so
 * the editor applies them only to that text — the same pin as `expectedSha256` on a write.
 * Nothing is written; permission presets do not apply (the editor's own save does the write).
 */
import { sha256Hex } from '../edits/write-journal.ts';
import { ActionError, isActionError } from '../errors.ts';
import type { EditBasis, Position, Range, TextEdit } from '../lsp/engine-types.ts';
import type { ActionDefinition } from './action-definition.ts';
import { ActionParams, invalid } from './action-params.ts';
import { buildEditPreview } from './edit-preview.ts';
import { resolveFileTarget, wirePath } from './file-target.ts';

/** Params shared by the three actions. */
export interface EditorEditsParams {
  workspaceRoot: string;
  filePath: string;
  text?: string;
  range?: Range;
  position?: Position;
  newName?: string;
}

/** One file's edits. */
export interface EditorFileEdits {
  filePath: string;
  edits: TextEdit[];
  /** SHA-256 of the text the server computed the edits against; absent when not known. */
  basisSha256?: string;
}

/** `format.edits` result. */
export interface FormatEditsResult {
  kind: 'formatEdits';
  filePath: string;
  serverId: string;
  edits: TextEdit[];
  basisSha256?: string;
}

/** `rename.prepare` result. */
export interface RenamePrepareResult {
  kind: 'renamePrepared';
  filePath: string;
  position: Position;
  found: boolean;
  range?: Range;
  placeholder?: string;
}

/** `rename.edits` result. */
export interface RenameEditsResult {
  kind: 'renameEdits';
  filePath: string;
  position: Position;
  newName: string;
  serverId: string;
  files: EditorFileEdits[];
  /** File creations/renames/deletions the edit also asks for (an editor may refuse them). */
  resourceOperations: number;
}

function parse(raw: unknown, needs: { position?: boolean; newName?: boolean }): EditorEditsParams {
  const p = new ActionParams(raw);
  const params: EditorEditsParams = { workspaceRoot: p.workspaceRoot(), filePath: p.filePath() };
  const text = p.text();
  if (text !== undefined) params.text = text;
  if (needs.position === true) params.position = p.position();
  else {
    const range = p.range();
    if (range !== undefined) params.range = range;
  }
  if (needs.newName === true) {
    params.newName = p.requiredString('newName');
    if (params.newName.trim() === '') throw invalid('params.newName must not be blank');
  }
  return params;
}

function basisText(basis: EditBasis | undefined, path: string): string | undefined {
  if (basis === undefined) return undefined;
  return basis.path === path ? basis.text : basis.others?.get(path)?.text;
}

/** `format.edits`: `{ filePath, workspaceRoot, range?, text? }` → the formatting edits, unapplied. */
export const formatEditsAction: ActionDefinition<EditorEditsParams, FormatEditsResult> = {
  id: 'format.edits',
  writes: false,
  description: 'The edits formatting a file (or a zero-based range) would make, for the editor to apply; nothing is written (read-only).',
  parse: (raw) => parse(raw, {}),
  async run(params, services, invocation) {
    const { target, path, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const { serverId, edits, basis } = await services.engine.format(target, params.range, { signal: invocation.signal });
    const result: FormatEditsResult = { kind: 'formatEdits', filePath, serverId, edits };
    const text = basisText(basis, path);
    if (text !== undefined) result.basisSha256 = sha256Hex(text);
    return result;
  },
};

/** `rename.prepare`: `{ filePath, workspaceRoot, position, text? }` → what would be renamed there. */
export const renamePrepareAction: ActionDefinition<EditorEditsParams, RenamePrepareResult> = {
  id: 'rename.prepare',
  writes: false,
  description: 'Whether the symbol at a zero-based position can be renamed, with its range and current name (read-only).',
  parse: (raw) => parse(raw, { position: true }),
  async run(params, services, invocation) {
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const position = params.position as Position;
    let prepared;
    try {
      prepared = await services.engine.prepareRename(target, position, { signal: invocation.signal });
    } catch (error) {
      // typescript-language-server refuses a non-renameable spot with an error of its own.
      if (isActionError(error) && error.code === 'LSP_ACTION_PEER_ERROR') return { kind: 'renamePrepared', filePath, position, found: false };
      throw error;
    }
    const result: RenamePrepareResult = { kind: 'renamePrepared', filePath, position, found: prepared !== null };
    if (prepared?.range !== undefined) result.range = prepared.range;
    if (prepared?.placeholder !== undefined) result.placeholder = prepared.placeholder;
    return result;
  },
};

/** `rename.edits`: `{ filePath, workspaceRoot, position, newName, text? }` → the rename's edits per file, unapplied. */
export const renameEditsAction: ActionDefinition<EditorEditsParams, RenameEditsResult> = {
  id: 'rename.edits',
  writes: false,
  description: 'The edits renaming the symbol at a zero-based position would make, per file, for the editor to apply; nothing is written (read-only).',
  parse: (raw) => parse(raw, { position: true, newName: true }),
  async run(params, services, invocation) {
    const { engine } = services;
    const { target, filePath } = resolveFileTarget(invocation.root, params.filePath, params.text);
    const position = params.position as Position;
    const newName = params.newName as string;
    const prepared = await engine.prepareRename(target, position, { signal: invocation.signal }).catch((error: unknown) => {
      if (isActionError(error) && error.code === 'LSP_ACTION_PEER_ERROR') return null;
      throw error;
    });
    if (prepared === null) {
      throw new ActionError('LSP_ACTION_NO_SYMBOL', `nothing to rename at ${filePath} line ${position.line}, character ${position.character} (zero-based)`);
    }
    const { serverId, edit, basis } = await engine.rename(target, position, newName, { signal: invocation.signal });
    const preview = buildEditPreview(invocation.root, edit, () => undefined);
    const byWire = new Map(edit.steps.flatMap((step) => (step.kind === 'edit' ? [[wirePath(invocation.root, step.path), step.path] as const] : [])));
    const files = preview.files.map((file): EditorFileEdits => {
      const out: EditorFileEdits = { filePath: file.filePath, edits: file.edits };
      const path = byWire.get(file.filePath);
      const text = path === undefined ? undefined : basisText(basis, path);
      if (text !== undefined) out.basisSha256 = sha256Hex(text);
      return out;
    });
    return { kind: 'renameEdits', filePath, position, newName, serverId, files, resourceOperations: preview.resourceOperations.length };
  },
};
