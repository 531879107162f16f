/**
 * The cheap half of learning about changes made by others: before a request, `stat` every
 * document the engine holds open (through the harness fs seam) and compare the fs version with
 * the one its text was read at. A changed or vanished file is reported so the engine re-syncs
 * (or closes) it before the server is asked anything. Cost: one `resolve` + `stat` per open
 * document, a few at a time (docs/benchmarks.md, "cross-file sweep").
 */
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import type { FileChange } from '../lsp/watched-files.ts';

/** `stat`s running at once. */
const CONCURRENCY = 16;

/**
 * @param fs the harness file system
 * @param files open paths with the fs version their text was read at
 * @param signal cancels the sweep (what was found so far is dropped)
 * @returns the files that changed (`changed`) or are gone (`deleted`) since
 */
export async function sweepOpenFiles(
  fs: Pick<FileSystem, 'resolve' | 'stat'>,
  files: ReadonlyArray<{ path: string; version: string }>,
  signal?: AbortSignal,
): Promise<FileChange[]> {
  const changes: FileChange[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < files.length) {
      signal?.throwIfAborted();
      const file = files[next++] as { path: string; version: string };
      let version: string | undefined;
      try {
        const info = await fs.stat(await fs.resolve(file.path), signal);
        version = info?.type === 'file' ? info.version : undefined;
      } catch {
        // unreadable now (deleted, replaced by a directory, denied): the re-sync decides
        version = undefined;
      }
      if (version === undefined) changes.push({ path: file.path, kind: 'deleted' });
      else if (version !== file.version) changes.push({ path: file.path, kind: 'changed' });
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
  return changes;
}
