/**
 * The contract of the write path: a normalised workspace edit goes in, every target is
 * pre-flighted, then files are written through the harness fs seam (fs/write-intent →
 * ctx.fs.writeText → fs/observed), all or nothing.
 */
import type { SandboxExecutionPolicy } from '@deepseek-ai/dsh-sandbox';
import type { NormalizedWorkspaceEdit } from '../lsp/engine-types.ts';

/** One request to apply a workspace edit. */
export interface WriteRequest {
  /** Absolute workspace root; every target must lie inside it (symlinks resolved). */
  root: string;
  edit: NormalizedWorkspaceEdit;
  /**
   * Content the edits were computed against, by absolute path (what the language server saw).
   * A file whose current content differs is a conflict. Paths not listed are planned against
   * the content read at plan time.
   */
  basis?: ReadonlyMap<string, string>;
  /**
   * What the editor (or caller) says it last saw, by absolute path: the lowercase hex SHA-256 of
   * the document's UTF-8 text (BOM excluded). The text the edit was computed against (its basis,
   * else the file as read) must hash to it, else `LSP_ACTION_CONFLICT` (reason `pin-mismatch`).
   */
  pins?: ReadonlyMap<string, string>;
  signal?: AbortSignal;
  /**
   * The actor for `fs/write-intent` and `fs/observed`: the tool's `exec` for agent calls;
   * `undefined` for editor-originated writes (which must never count as something an agent saw).
   */
  actor?: object;
  /** The sandbox policy resolved for this call, passed to `writeText`; undefined when the fs does not confine. */
  policy?: SandboxExecutionPolicy;
}

/** What happened to one file. */
export interface FileChange {
  path: string;
  operation: 'create' | 'update';
  before: string | null;
  after: string;
  /** Text edits applied to this file. */
  editCount: number;
}

/** The outcome of a successful write: every file changed (an empty list when the edit changed nothing). */
export interface WriteResult {
  files: FileChange[];
}

/**
 * Applies workspace edits through the harness write path.
 * Throws `ActionError`:
 * - `LSP_ACTION_CONFLICT`: a target changed since it was read, edits overlap, a target leaves the workspace, or a
 *   target is a read-only file (`reason: "read-only-file"`) or hard-linked (`"hard-link"`); nothing written.
 * - `LSP_ACTION_READ_ONLY`: the sandbox denied the write (`FS_SANDBOX_DENIED`); nothing written.
 * - `LSP_ACTION_UNSUPPORTED`: a resource operation the fs seam cannot perform; refused before any write.
 * - `LSP_ACTION_WRITE_FAILED`: a later write failed; files already written were restored
 *   (details say which were restored and which could not be).
 */
export interface WorkspaceWriter {
  apply(request: WriteRequest): Promise<WriteResult>;
  /** Recovers an edit a crash left half-applied in `root`, before the first action there reads it. */
  prepare?(root: string): Promise<void>;
}
