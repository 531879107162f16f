/**
 * Presets for language servers the command line picks up when it finds them installed (on
 * `PATH`, or in the workspace's `node_modules/.bin`). Each preset is a `servers` entry without
 * `command`: detection fills in the executable it found. Settings follow
 * shared/language-servers.md (what each server advertises and needs) and stay minimal; a
 * user's `--servers` file overrides any field per server id.
 */
import type { ServerConfig } from '../config.ts';

/** A server entry the CLI adds when one of `executables` is installed. */
export interface ServerPreset {
  /** Server id in the `servers` table (and in a `--servers` override file). */
  id: string;
  /**
   * Presets of one group serve the same files; only the first installed one is used, so a
   * Python file is not checked by pyright and pylsp at once.
   */
  group: string;
  /** Executable names looked for, in order. */
  executables: string[];
  /** The rest of the entry; schema defaults fill what is left out. */
  entry: Omit<Partial<ServerConfig>, 'command'>;
}

const PYTHON_EXTENSIONS = { '.py': 'python', '.pyi': 'python' };
const PYTHON_ROOTS = ['pyproject.toml', 'pyrightconfig.json', 'setup.py', 'setup.cfg', 'requirements.txt', 'Pipfile'];
const PYRIGHT_ANALYSIS = { autoSearchPaths: true, useLibraryCodeForTypes: true, diagnosticMode: 'openFilesOnly' };

/** Every preset, in detection order (within a group, the first installed wins). */
export const SERVER_PRESETS: readonly ServerPreset[] = [
  {
    id: 'pyright',
    group: 'python',
    executables: ['pyright-langserver'],
    entry: {
      args: ['--stdio'],
      extensionToLanguage: PYTHON_EXTENSIONS,
      rootMarkers: PYTHON_ROOTS,
      configuration: { python: { analysis: PYRIGHT_ANALYSIS } },
    },
  },
  {
    id: 'basedpyright',
    group: 'python',
    executables: ['basedpyright-langserver'],
    entry: {
      args: ['--stdio'],
      extensionToLanguage: PYTHON_EXTENSIONS,
      rootMarkers: PYTHON_ROOTS,
      configuration: { basedpyright: { analysis: PYRIGHT_ANALYSIS } },
    },
  },
  {
    id: 'pylsp',
    group: 'python',
    executables: ['pylsp'],
    entry: { args: [], extensionToLanguage: PYTHON_EXTENSIONS, rootMarkers: PYTHON_ROOTS },
  },
  {
    id: 'dockerfile',
    group: 'dockerfile',
    executables: ['docker-langserver'],
    entry: {
      args: ['--stdio'],
      extensionToLanguage: { '.dockerfile': 'dockerfile' },
      fileGlobs: {
        '**/Dockerfile': 'dockerfile',
        '**/Dockerfile.*': 'dockerfile',
        '**/*.Dockerfile': 'dockerfile',
        '**/Containerfile': 'dockerfile',
        '**/Containerfile.*': 'dockerfile',
      },
    },
  },
  {
    id: 'clangd',
    group: 'c',
    executables: ['clangd'],
    entry: {
      args: [],
      extensionToLanguage: {
        '.c': 'c',
        '.h': 'cpp',
        '.cc': 'cpp',
        '.cpp': 'cpp',
        '.cxx': 'cpp',
        '.c++': 'cpp',
        '.hh': 'cpp',
        '.hpp': 'cpp',
        '.hxx': 'cpp',
        '.ipp': 'cpp',
        '.m': 'objective-c',
        '.mm': 'objective-cpp',
      },
      rootMarkers: ['compile_commands.json', 'compile_flags.txt', '.clangd'],
    },
  },
  {
    id: 'gopls',
    group: 'go',
    executables: ['gopls'],
    entry: { args: [], extensionToLanguage: { '.go': 'go' }, rootMarkers: ['go.work', 'go.mod'] },
  },
  {
    id: 'rust-analyzer',
    group: 'rust',
    executables: ['rust-analyzer'],
    entry: { args: [], extensionToLanguage: { '.rs': 'rust' }, rootMarkers: ['Cargo.toml'] },
  },
  {
    id: 'bash',
    group: 'shell',
    executables: ['bash-language-server'],
    entry: {
      args: ['start'],
      extensionToLanguage: { '.sh': 'shellscript', '.bash': 'shellscript' },
    },
  },
  {
    id: 'yaml',
    group: 'yaml',
    executables: ['yaml-language-server'],
    entry: {
      args: ['--stdio'],
      extensionToLanguage: { '.yaml': 'yaml', '.yml': 'yaml' },
      // The JSON Schema Store lookup is a network fetch at startup; off for deterministic runs.
      configuration: { yaml: { schemaStore: { enable: false }, validate: true, format: { enable: true } } },
    },
  },
];
