/**
 * Directory names a workspace walk never descends into (dependencies, VCS metadata, build
 * output, virtual environments), shared by `check`'s file collection and the workspace-wide
 * diagnostics of the model tool. An explicitly given path is always used.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'lib',
  '__pycache__',
  '.venv',
  'venv',
  // this package's write journal (src/edits/write-journal.ts)
  '.dsh-lsp-actions',
]);
