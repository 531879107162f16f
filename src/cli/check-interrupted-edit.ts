/**
 * `check` never judges a half-written tree. It runs read-only, so it does not finish an edit a
 * crash interrupted; when one of ours left files holding its new bytes (or is being written right
 * now), it refuses with exit 2 and says how to finish it: starting `serve` with a writable
 * sandbox replays the journal and, with stdin at its end, exits. The journals of the workspace and
 * of its ancestors are looked at (a backend may serve a parent folder). Decision 0043.
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { dirname, relative } from 'node:path';
import { findInterruptedEdit, type InterruptedEdit } from '../edits/startup-recovery.ts';
import { type CliIo, SetupError } from './cli-io.ts';

/** Files named in the refusal. */
const EXAMPLES = 5;

/**
 * @param fs the booted composition's fs seam
 * @param workspace the checked workspace
 * @param io stderr for a note about a journal that is not used
 * @throws SetupError (exit 2) when an interrupted or running edit leaves the workspace half-written
 */
export async function refuseHalfWrittenTree(fs: FileSystem, workspace: string, io: Pick<CliIo, 'stderr'>): Promise<void> {
  // the workspace's own journal, then its ancestors' (serve may have been started on a parent folder)
  for (let folder = workspace; ; folder = dirname(folder)) {
    const { edit, note } = await findInterruptedEdit(fs, folder);
    if (note !== undefined) io.stderr.write(`note: ${note}\n`);
    if (edit !== undefined) refuse(edit, folder);
    if (dirname(folder) === folder) return;
  }
}

function refuse(edit: InterruptedEdit, workspace: string): never {
  const names = edit.written.slice(0, EXAMPLES).map((path) => relative(workspace, path));
  const more = edit.written.length > EXAMPLES ? `, … ${edit.written.length - EXAMPLES} more` : '';
  const files = `${edit.written.length} of its ${edit.total} files hold its new text${names.length > 0 ? ` (${names.join(', ')}${more})` : ''}`;
  if (edit.running) {
    throw new SetupError(
      `an edit is being written in ${workspace} right now by pid ${edit.pid} (started ${edit.startedAt}; ${files}); ` +
        'nothing was judged: the tree is half-written until it is done. Run check again then.',
    );
  }
  throw new SetupError(
    `an edit interrupted at ${edit.startedAt} (pid ${edit.pid}, journal ${edit.journal}) left ${workspace} half-written: ${files}; ` +
      'nothing was judged. Put the originals back by starting the backend once with a writable sandbox — ' +
      `\`dsh-lsp-actions serve --workspace ${workspace} --sandbox workspace-write < /dev/null\` restores them, says so on stderr, and exits — then run check again.`,
  );
}
