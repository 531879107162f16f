/**
 * Pre-flight of a workspace edit: everything that can be checked before the first byte is
 * written, for EVERY target, in this order:
 *
 * 1. the edit only uses operations the fs seam can perform (`rename`/`delete` refused);
 * 2. every target resolves (symlinks followed, `ctx.fs.resolve`) to a file inside the resolved
 *    workspace root (`ctx.fs.contains`); a dangling symlink is refused too;
 * 3. every target is read as a consistent (text, version) pair and, when the caller gave the text
 *    the edits were computed against (`basis`), still has exactly that text;
 * 4. the file's operations apply cleanly in order (creates honour `overwrite`/`ignoreIfExists`,
 *    edits do not overlap, positions are clamped as the LSP spec says);
 * 5. no file the edit writes is read-only or hard-linked, where its local metadata is known
 *    (`local-file-metadata.ts`, `metadata-refusal.ts`).
 *
 * The result is the complete new content of every target; nothing has been written yet.
 */
import type { FileSystem, FsTarget } from '@deepseek-ai/dsh-fs';
import { abortError, ActionError } from '../errors.ts';
import { containsTarget } from '../workspace-containment.ts';
import type { NormalizedWorkspaceEdit } from '../lsp/engine-types.ts';
import { applyTextEdits } from './apply-text-edits.ts';
import { collectTargetPaths, type FilePlan, groupStepsByFile } from './edit-plan.ts';
import { toWriteActionError } from './fs-error-map.ts';
import type { LocalFileMetadata, LocalFileMetadataProbe } from './local-file-metadata.ts';
import { refuseUnsafeMetadata } from './metadata-refusal.ts';
import { type FileSnapshot, readSnapshot } from './read-snapshot.ts';

/** One target, pre-flighted: its plan-time snapshot and its complete new content. */
export interface PreparedFile {
  target: FsTarget;
  /** Absolute path for results and messages. */
  path: string;
  snapshot: FileSnapshot;
  /** Text before the edit (`null` when the edit creates the file). */
  before: string | null;
  /** Text after the edit, without the BOM. */
  after: string;
  /** Whether the written bytes start with a UTF-8 BOM (kept from the original file). */
  bom: boolean;
  operation: 'create' | 'update';
  /** Text edits applied. */
  editCount: number;
  /** Whether the file must be written at all. */
  changed: boolean;
  /** Its local owner, mode and links at plan time (only for a changed existing file; undefined when unknown). */
  metadata?: LocalFileMetadata;
}

/** What a pre-flight needs. */
export interface PreflightInput {
  root: string;
  edit: NormalizedWorkspaceEdit;
  basis?: ReadonlyMap<string, string>;
  signal?: AbortSignal;
  /** Reads what the seam does not report (owner, mode, links); omitted: unknown, nothing checked. */
  metadata?: LocalFileMetadataProbe;
}

/** The fs primitives a pre-flight needs. */
export type PreflightFs = Pick<FileSystem, 'resolve' | 'contains' | 'stat' | 'lstat' | 'readText' | 'readBytes'>;

/**
 * @param fs the harness file system
 * @param input root, edit, basis, signal
 * @returns one prepared file per target, in the edit's first-seen order
 * @throws ActionError see the module comment; nothing is ever written here
 */
export async function preflight(fs: PreflightFs, input: PreflightInput): Promise<PreparedFile[]> {
  const { signal } = input;
  const paths = collectTargetPaths(input.edit);
  const root = await resolveOrThrow(fs, input.root, input.root, signal);
  const targets = new Map<string, FsTarget>();
  for (const path of paths) {
    const target = await resolveOrThrow(fs, path, input.root, signal);
    if (!containsTarget(fs, root, target)) {
      throw new ActionError(
        'LSP_ACTION_CONFLICT',
        `${path} lies outside the workspace ${input.root} (symbolic links followed); the whole edit was refused ` +
          'and nothing was written',
        { paths: [path, input.root], reason: 'outside-workspace' },
      );
    }
    targets.set(path, target);
  }
  const plans = groupStepsByFile(input.edit, (path) => String(requireTarget(targets, path).targetKey));
  const prepared: PreparedFile[] = [];
  for (const plan of plans) {
    if (signal?.aborted) throw abortError(signal);
    prepared.push(await prepareFile(fs, plan, requireTarget(targets, plan.paths[0] ?? ''), input));
  }
  refuseUnsafeMetadata(prepared);
  return prepared;
}

async function prepareFile(fs: PreflightFs, plan: FilePlan, target: FsTarget, input: PreflightInput): Promise<PreparedFile> {
  const path = target.displayPath;
  const snapshot = await readSnapshot(fs, target, input.signal);
  if (!snapshot.exists) await refuseDanglingLink(fs, path, input.signal);
  checkBasis(plan, target, snapshot, input.basis);

  let exists = snapshot.exists;
  let text = snapshot.exists ? snapshot.text : '';
  let created = false;
  let editCount = 0;
  for (const operation of plan.operations) {
    if (operation.kind === 'create') {
      if (!exists) {
        exists = true;
        created = true;
        text = '';
      } else if (operation.overwrite) {
        text = '';
      } else if (!operation.ignoreIfExists) {
        throw new ActionError(
          'LSP_ACTION_CONFLICT',
          `the edit creates ${path}, which already exists (and neither overwrite nor ignoreIfExists was set); ` +
            'nothing was written',
          { paths: [path], reason: 'exists' },
        );
      }
    } else {
      if (!exists) {
        throw new ActionError('LSP_ACTION_FILE_NOT_FOUND', `the edit changes ${path}, which does not exist; nothing was written`, {
          paths: [path],
        });
      }
      text = applyTextEdits(text, operation.edits, path);
      editCount += operation.edits.length;
    }
  }
  const before = snapshot.exists ? snapshot.text : null;
  const changed = created || (before !== null && text !== before);
  const metadata = snapshot.exists && changed && input.metadata ? await input.metadata(target, snapshot.size) : undefined;
  return {
    target,
    path,
    snapshot,
    before,
    after: text,
    bom: snapshot.exists && snapshot.bom,
    operation: snapshot.exists ? 'update' : 'create',
    editCount,
    changed,
    ...(metadata ? { metadata } : {}),
  };
}

function checkBasis(
  plan: FilePlan,
  target: FsTarget,
  snapshot: FileSnapshot,
  basis: ReadonlyMap<string, string> | undefined,
): void {
  if (basis === undefined) return;
  for (const path of new Set([...plan.paths, target.displayPath])) {
    const expected = basis.get(path);
    if (expected === undefined) continue;
    if (!snapshot.exists || snapshot.text !== expected) {
      throw new ActionError(
        'LSP_ACTION_CONFLICT',
        `${path} ${snapshot.exists ? 'changed' : 'was deleted'} after the language server computed the edit; ` +
          'nothing was written. Re-read the file and re-run the action.',
        { paths: [path], reason: 'basis-mismatch' },
      );
    }
  }
}

/** A path that `stat` (following links) calls absent but `lstat` finds is a dangling link. */
async function refuseDanglingLink(fs: PreflightFs, path: string, signal: AbortSignal | undefined): Promise<void> {
  let entry;
  try {
    entry = await fs.lstat(path, {}, signal);
  } catch (error) {
    throw toWriteActionError(error, { path, stage: 'read', ...(signal ? { signal } : {}) });
  }
  if (entry !== undefined) {
    throw new ActionError(
      'LSP_ACTION_CONFLICT',
      `${path} is a ${entry.type === 'symlink' ? 'symbolic link to a missing file' : `${entry.type} that cannot be read`}; ` +
        'the edit will not create a file through it. Nothing was written.',
      { paths: [path], reason: 'dangling-link' },
    );
  }
}

async function resolveOrThrow(fs: PreflightFs, path: string, root: string, signal: AbortSignal | undefined): Promise<FsTarget> {
  try {
    return await fs.resolve(path, { cwd: root, ...(signal ? { signal } : {}) });
  } catch (error) {
    throw toWriteActionError(error, { path, stage: 'read', ...(signal ? { signal } : {}) });
  }
}

function requireTarget(targets: ReadonlyMap<string, FsTarget>, path: string): FsTarget {
  const target = targets.get(path);
  if (target === undefined) throw new ActionError('LSP_ACTION_SERVER_FAILED', `internal: ${path} was not resolved`);
  return target;
}
