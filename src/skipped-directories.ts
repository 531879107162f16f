/**
 * Directory names a workspace walk never descends into: dependencies, VCS metadata, Python
 * caches and virtual environments. An explicitly given path is always used.
 *
 * `check` skips only these, plus what the project itself says (its `.gitignore`, its tsconfig
 * `exclude`): a library may keep its sources in `lib/`, so a directory's name is no proof of
 * build output. The model tool's bounded workspace walk, which has no project knowledge yet,
 * additionally skips the usual build-output names ({@link BUILD_OUTPUT_DIRECTORIES}).
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.venv',
  'venv',
  // this package's write journal (src/edits/write-journal.ts)
  '.dsh-lsp-actions',
]);

/** Common build-output names, a guess the workspace-wide model tool still makes. */
export const BUILD_OUTPUT_DIRECTORIES: ReadonlySet<string> = new Set(['dist', 'lib']);
