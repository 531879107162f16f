/**
 * What `check` says when files go unchecked for want of a language server: which kind of file,
 * and what to install (the CLI picks a server up from `node_modules/.bin` or `PATH` by itself,
 * see {@link SERVER_PRESETS}); and the message for a target with nothing to check at all, which
 * names the target instead of blaming the language servers.
 */
import { basename, extname } from 'node:path';
import { displayPath, plural } from './format-text.ts';
import { SERVER_PRESETS } from './server-presets.ts';

/** Per preset group: the language's name and how to install a server for it. */
export const INSTALL_HINTS: Readonly<Record<string, { language: string; install: string }>> = {
  python: { language: 'Python', install: 'install pyright (`npm i -D pyright` or `pip install pyright`); basedpyright or pylsp also work' },
  go: { language: 'Go', install: 'install gopls (`go install golang.org/x/tools/gopls@latest`)' },
  rust: { language: 'Rust', install: 'install rust-analyzer (`rustup component add rust-analyzer`)' },
  c: { language: 'C/C++', install: 'install clangd (e.g. `apt install clangd`)' },
  shell: { language: 'shell', install: 'install bash-language-server (`npm i -D bash-language-server`)' },
  yaml: { language: 'YAML', install: 'install yaml-language-server (`npm i -D yaml-language-server`)' },
  dockerfile: { language: 'Dockerfile', install: 'install dockerfile-language-server-nodejs (`npm i -D dockerfile-language-server-nodejs`)' },
};

/**
 * @param file a file path
 * @returns the preset group whose servers would check it (`python` for `.py`), if any
 */
export function presetGroupOf(file: string): string | undefined {
  const ext = extname(file).toLowerCase();
  const name = basename(file);
  for (const preset of presetMatchers()) {
    if (ext !== '' && preset.extensions.has(ext)) return preset.group;
    if (preset.names.some((pattern) => pattern.test(name))) return preset.group;
  }
  return undefined;
}

let matchers: Array<{ group: string; extensions: ReadonlySet<string>; names: RegExp[] }> | undefined;

/** The presets' extensions and name patterns, compiled once (a check may ask for thousands of files). */
function presetMatchers(): NonNullable<typeof matchers> {
  matchers ??= SERVER_PRESETS.map((preset) => ({
    group: preset.group,
    extensions: new Set(Object.keys(preset.entry.extensionToLanguage ?? {})),
    names: Object.keys(preset.entry.fileGlobs ?? {}).map(namePattern),
  }));
  return matchers;
}

/** The preset globs are `**\/NAME`, `**\/NAME.*` and `**\/*.EXT`; enough to match those on a base name. */
function namePattern(glob: string): RegExp {
  const last = glob.split('/').pop() ?? glob;
  return new RegExp(`^${last.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/**
 * @param files files no configured language server handles
 * @returns them by preset group (files of no known kind left out), groups in first-seen order
 */
export function unservedByGroup(files: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of files) {
    const group = presetGroupOf(file);
    if (group === undefined || INSTALL_HINTS[group] === undefined) continue;
    const list = out.get(group) ?? [];
    list.push(file);
    out.set(group, list);
  }
  return out;
}

/**
 * @param files files no configured language server handles
 * @param cwd directory printed paths are relative to
 * @returns one line per kind of file a known server would check: how many, an example, what to install
 */
export function missingServerLines(files: readonly string[], cwd: string): string[] {
  const lines: string[] = [];
  for (const [group, list] of unservedByGroup(files)) {
    const hint = INSTALL_HINTS[group] as { language: string; install: string };
    const example = displayPath(list[0] as string, cwd);
    const what = list.length === 1 ? example : `${plural(list.length, `${hint.language} file`)} (${example}, …)`;
    lines.push(`${what} not checked: no ${hint.language} language server is installed; ${hint.install}`);
  }
  return lines;
}

/**
 * @param paths the paths given to `check`
 * @param found how many files were found under them (any kind)
 * @param cwd the current directory
 * @returns the message for a target with no files to check
 */
export function nothingToCheckMessage(paths: readonly string[], found: number, cwd: string): string {
  const target = paths.length === 1 && paths[0] === '.' ? `the current directory (${cwd})` : paths.join(', ');
  if (found === 0) return `nothing to check: no files under ${target} (dependency directories such as node_modules and .gitignore'd paths are skipped)`;
  return `nothing to check: none of the ${plural(found, 'file')} under ${target} is of a kind a language server here checks`;
}
