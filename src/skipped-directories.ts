/**
 * Directory names a workspace walk never descends into: dependencies, VCS metadata, Python
 * caches and virtual environments. An explicitly given path is always used.
 *
 * Both walks skip only these, plus what the project itself says: `check` its `.gitignore` (asked
 * from git) and its tsconfig `exclude`; the model tool's bounded walk the plain directory names of
 * the root `.gitignore` (`tools/gitignore-names.ts`). A library may keep its sources in `lib/`,
 * so a directory's name is no proof of build output.
 */
export const SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  '__pycache__',
  '.venv',
  'venv',
  // where older versions kept the write journal (now outside the tree: decision 0043)
  '.dsh-lsp-actions',
]);
