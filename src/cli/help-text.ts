/**
 * The `--help` texts. Kept next to the parser so a new flag and its documentation change
 * together (a spec test checks that every flag the parser knows appears here).
 */
import type { HelpTopic } from './parse-args.ts';

const MAIN = `Usage: dsh-lsp-actions <command> [options]

Real language-server feedback from the DeepSeek Harness plugin dsh-lsp-actions, on the command line.

Commands:
  check [PATH…]   Print diagnostics for files and directories, like a compiler; exit 1 on errors
  serve           Serve the editor action protocol (lsp-actions/v1, NDJSON JSON-RPC) on stdio
  mcp             Serve the lsp_* agent tools as an MCP server on stdio (Claude Code, Codex, …)
  help [COMMAND]  Show help for a command

Options:
  -h, --help      Show help
  -V, --version   Show the version

TypeScript and JavaScript work out of the box (the package's own typescript-language-server and
TypeScript 5.9.3). Other installed language servers are picked up from PATH and the workspace's
node_modules/.bin: pyright, basedpyright or pylsp (Python), docker-langserver, clangd, gopls,
rust-analyzer, bash-language-server, yaml-language-server. Run 'dsh-lsp-actions help check'.

Needs Node 22.19 or newer (--help and --version work on any Node; on an older one, other
commands print the line that runs them on Node 22).
`;

const COMMON = `  -w, --workspace DIR   Workspace root (default: the current directory)
  -c, --config FILE     Boot this cordis.yml instead of the default composition
      --servers FILE    JSON/YAML table of servers merged over the presets, per server id:
                          { "<id>": { command?, args?, extensionToLanguage?, fileGlobs?,
                          rootMarkers?, initializationOptions?, configuration?, env?, … } }
                          Settings bags (initializationOptions, configuration, env) merge key by
                          key; other fields replace the preset's. null drops a server (a Python
                          preset dropped lets the next installed one in). Preset ids: typescript,
                          pyright, basedpyright, pylsp, dockerfile, clangd, gopls, rust-analyzer,
                          bash, yaml
      --log-level LEVEL silent, error, warn (default), info or debug; logs go to stderr
  -h, --help            Show this help`;

const CHECK = `Usage: dsh-lsp-actions check [PATH…] [options]

Diagnostics for files and directories (default: .), through the same engine as the agent tools
and the editor backend — the files the compiler checks:
  - TypeScript/JavaScript: a PATH with its own tsconfig.json is that program and the programs
    it references, every file of them (as tsc -b builds them); other programs nested under it
    are skipped and named (--all-programs checks them). A PATH without one: the programs found
    below it and those of its parent directories (narrowed to PATH). A program's files are what
    tsc checks: include, exclude, files, extends, and what they import or /// reference; plus
    files named explicitly. Files in no program are skipped with a note (--include-unconfigured
    checks them); with no tsconfig at all, every such file is checked. tsconfig errors are
    reported on the tsconfig (exit 1). A program with syntax errors reports only those, as tsc.
  - Other files: every file a language server handles.
  Directories are walked recursively, skipping node_modules, .git, .hg, .svn, __pycache__, .venv,
  venv and whatever the project's .gitignore ignores (asked from git). What was skipped is said
  on stderr.

TypeScript: the workspace's own (node_modules/typescript from the workspace up): 4.0 to 6.x through
its tsserver, 7 and newer through its own language server (tsc --lsp); else the embedded 5.9.3.
The one used is named on stderr and in JSON/SARIF. One server process per tsconfig program, one
program at a time, each stopped when its program is checked (--watch keeps them).

Output (text):
  path:line:col severity message [source code]    (one-based; path relative to the current directory)
  N errors, M warnings in K files (F files checked)

Options:
  -f, --format FORMAT   text (default), json or sarif (SARIF 2.1.0 for code-scanning upload)
      --wait-ms N       How long each file may wait for fresh diagnostics (default 20000)
      --severity LEVEL  Lowest severity reported: error, warning (default), info or hint
  -j, --jobs N          Batches of 50 files checked at once (default 4); a TypeScript project is
                          asked through tsserver without opening each file
      --all-programs    Also check the tsconfig programs nested under PATH that PATH's own
                          tsconfig does not reference
      --include-unconfigured
                        Also check TypeScript/JavaScript files that no tsconfig program includes
      --typescript WHICH
                        auto (default), workspace (fail if it has none), embedded, or a path
                          to a TypeScript package directory or its lib/tsserver.js
      --no-progress     No progress line (it is only drawn when stderr is a terminal)
      --pretty          Colour, and the source line under each problem with a ~ squiggle
                          (default when stdout is a terminal; FORCE_COLOR/NO_COLOR are honoured)
      --no-pretty       Plain text even on a terminal
      --watch           Check, then re-check on every file change on the warm servers, as
                          tsc --watch prints it; Ctrl-C stops every server and exits 130
      --sarif-category NAME
                        SARIF automationDetails.id category (dsh-lsp-actions/check/NAME/); one
                          per SARIF file when several are uploaded for a commit
${COMMON}

Exit status:
  0    every file has fresh diagnostics and none is an error
  1    errors were found, or some file has no fresh result (pending, stale, failed): a gate
       never passes on an unknown result
  2    usage or setup error (unknown flag, missing path, no server for any file, boot failure),
       or a tree an interrupted edit left half-written (the message names the way to finish it)
  130  interrupted by SIGINT (Ctrl-C), 143 by SIGTERM (128 + signal number): the files
       finished so far are reported, then one line saying how many were checked
`;

const SERVE = `Usage: dsh-lsp-actions serve [options]

Serve the editor action protocol (lsp-actions/v1) on stdio: newline-delimited JSON-RPC 2.0,
stdout carries frames only, logs go to stderr. Boots the default composition (the harness's
tools, sandboxed fs, sandbox policy, local subprocess, observation and timeout policies, and
dsh-lsp-actions with editor.enabled) through the cordis Loader. End of input stops every
language server and exits 0.

Options:
      --sandbox MODE    read-only, workspace-write or danger-full-access for editor writes
                          (default: $DSH_PERMISSION_MODE, else workspace-write)
      --print-config    Print the composition as a cordis.yml (to save, edit and pass to --config)
${COMMON}
`;

const MCP = `Usage: dsh-lsp-actions mcp [options]

Serve the agent tools (lsp_diagnostics, lsp_format, lsp_rename, … and lsp_edit_feedback) as a
Model Context Protocol server on stdio, for MCP clients such as Claude Code, Codex, Cursor,
opencode and Zed: stdout carries MCP frames only, logs go to stderr. Boots the same default
composition as serve. Closing stdin stops every language server and exits 0. See docs/mcp.md.

Options:
  -w, --workspace DIR   A folder the tools work in (repeatable; default: the current directory).
                          Relative file paths are taken from the first; an absolute path from
                          the folder holding it
      --sandbox MODE    read-only (default), workspace-write or danger-full-access: whether
                          lsp_format, lsp_rename, lsp_organize_imports and lsp_code_action may
                          write files. MCP has no approval prompt, so a write beyond this mode is
                          refused (default: $DSH_PERMISSION_MODE, else read-only)
${COMMON.split('\n').slice(1).join('\n')}
`;

/**
 * @param topic a command, or undefined for the overview
 * @returns the help text
 */
export function helpText(topic?: HelpTopic): string {
  if (topic === 'check') return CHECK;
  if (topic === 'serve') return SERVE;
  if (topic === 'mcp') return MCP;
  return MAIN;
}
