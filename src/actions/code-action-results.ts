/**
 * Wire shapes of the code-action family and the other multi-file write actions:
 * `codeActions.list`, `codeAction.apply`, `organizeImports`, `rename` (and the selection and
 * preview shapes `quickfix.apply` shares). Re-exported by `action-results.ts`.
 */
import type { Position, Range, TextEdit } from '../lsp/engine-types.ts';
import type { EscalationParams, FileEditCount, FileParams, ReadFileParams, UnchangedResult, WriteSummary, Capped } from './action-results.ts';

// ── code actions: shared ──────────────────────────────────────────────────────

/** Selecting one code action: `title` (exact) wins over `index` (default 0). */
export interface CodeActionSelectParams extends FileParams, EscalationParams {
  range?: Range;
  title?: string;
  index?: number;
  only?: string[];
}

/** Edits to one file in a preview; `diff` is a unified-diff-like hunk when the text is known. */
export interface PreviewFile {
  filePath: string;
  edits: TextEdit[];
  diff?: string;
}

/** A resource operation in a preview. */
export type PreviewResourceOperation =
  | { kind: 'create'; filePath: string }
  | { kind: 'rename'; oldFilePath: string; newFilePath: string }
  | { kind: 'delete'; filePath: string };

/** What applying a workspace edit would change. */
export interface EditPreview {
  files: PreviewFile[];
  resourceOperations: PreviewResourceOperation[];
  editCount: number;
}

// ── codeActions.list / codeAction.apply ──────────────────────────────────────

/** `codeActions.list` params; `only` filters by kind prefix; `preview` (default true) resolves edits. */
export interface CodeActionsListParams extends ReadFileParams {
  range?: Range;
  only?: string[];
  maxItems?: number;
  preview?: boolean;
}

/** One code action as listed. `index` is what `quickfix.apply`/`codeAction.apply` take. */
export interface WireCodeAction {
  index: number;
  title: string;
  kind?: string;
  isPreferred: boolean;
  disabled?: string;
  serverId: string;
  /** A command runs when applied (through `codeAction.apply`; never by `quickfix.apply`). */
  command?: { title: string; command: string };
  /** Messages of the diagnostics it fixes. */
  diagnostics: string[];
  /** Absent when the action has no edit (command-only) or preview was off. */
  preview?: EditPreview;
}

/** `codeActions.list` result. `range` is the range asked about (the first error's when none was given). */
export interface CodeActionsListResult extends Capped {
  kind: 'codeActions';
  filePath: string;
  range: Range;
  actions: WireCodeAction[];
  /**
   * Additive: why a diagnostic in `range` has no quick fix, when the server is known to lack
   * some (TypeScript 7's `tsc --lsp`; quick-fix-gaps.ts). Absent otherwise.
   */
  note?: string;
}

/** `codeAction.apply` params: any kind by default; commands run unless `runCommand: false`. */
export interface CodeActionApplyParams extends CodeActionSelectParams {
  runCommand?: boolean;
}

/** `codeAction.apply` result. `applied` is false (with `failureReason`) when a command's edit was refused. */
export type CodeActionApplyResult =
  | ({
      kind: 'codeActionApplied';
      filePath: string;
      title: string;
      actionKind?: string;
      serverId: string;
      applied: boolean;
      failureReason?: string;
      commandExecuted: boolean;
      files: FileEditCount[];
    } & WriteSummary)
  | UnchangedResult;

// ── organizeImports / rename ──────────────────────────────────────────────────

/** `organizeImports` params. */
export type OrganizeImportsParams = FileParams & EscalationParams;

/** `organizeImports` result. */
export type OrganizeImportsResult =
  | ({ kind: 'importsOrganized'; filePath: string; title: string; serverId: string; linesChanged: number; failureReason?: string } & WriteSummary)
  | UnchangedResult;

/** `rename` params. */
export interface RenameParams extends FileParams, EscalationParams {
  position: Position;
  newName: string;
}

/** `rename` result. */
export type RenameResult =
  | ({ kind: 'renamed'; filePath: string; position: Position; oldName?: string; newName: string; serverId: string; files: FileEditCount[] } & WriteSummary)
  | UnchangedResult;
