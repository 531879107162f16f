/**
 * What the executable does on a Node older than the harness needs: `--help` and `--version` still
 * answer (they need nothing from the harness), and every other command stops with one message
 * that names a Node 22 to use and the exact line that runs the same command on it.
 *
 * Loaded by `main.ts` before the version check, so this file may use only what every Node that
 * runs ES modules has: no harness package, no `node:util` `parseArgs`, nothing newer than
 * Node 14.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** How `main.ts` answers a command line on an old Node. */
export type OldNodeAnswer = { kind: 'help'; topic?: 'check' | 'serve' | 'mcp' } | { kind: 'version' } | { kind: 'refuse' };

const HELP = new Set(['-h', '--help']);
const VERSION = new Set(['-V', '--version', 'version']);

/**
 * The commands that need no harness, recognised as `parseArgs` recognises them: `--help`, `-h`,
 * `help [check|serve|mcp]`, `--version`, `-V`, `version`, and `check`/`serve`/`mcp` with `-h`/`--help`
 * before any `--`.
 * @param argv arguments after the script
 * @returns help, version, or refuse (anything else needs Node 22.19+)
 */
export function oldNodeAnswer(argv: readonly string[]): OldNodeAnswer {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'refuse' };
  if (HELP.has(first)) return { kind: 'help' };
  if (VERSION.has(first)) return { kind: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help' };
    return topic === 'check' || topic === 'serve' || topic === 'mcp' ? { kind: 'help', topic } : { kind: 'refuse' };
  }
  if (first === 'check' || first === 'serve' || first === 'mcp') {
    const end = rest.indexOf('--');
    const flags = end < 0 ? rest : rest.slice(0, end);
    if (flags.some((arg) => HELP.has(arg))) return { kind: 'help', topic: first };
  }
  return { kind: 'refuse' };
}

/**
 * @param packageRoot the package's own folder (holding `package.json` and `lib/`)
 * @returns the Node 22 this package brings as its `node` dev dependency (present in a clone after
 *   `npm install`), or undefined when it is not installed (an installed dependency has none)
 */
export function bundledNode(packageRoot: string): string | undefined {
  const candidates = [join(packageRoot, 'node_modules', 'node', 'bin', 'node'), join(packageRoot, 'node_modules', '.bin', 'node')];
  return candidates.find((path) => existsSync(path));
}

/**
 * @param arg one argument
 * @returns the argument as a POSIX shell word (quoted only when it needs to be)
 */
export function shellWord(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

export interface OldNodeFacts {
  /** `process.versions.node` */
  version: string;
  /** `process.execPath` */
  execPath: string;
  /** The script being run (`lib/cli/main.js`), absolute. */
  script: string;
  /** Arguments after the script. */
  argv: readonly string[];
  /** The package's own folder. */
  packageRoot: string;
  /** The package's bundled Node 22, when installed ({@link bundledNode}). */
  bundled: string | undefined;
  /** The lowest supported version, e.g. `22.19`. */
  minimum: string;
}

/**
 * @param facts what is running and what is at hand
 * @returns the message for stderr: what is needed, and the one line that runs the same command
 *   on Node 22 — the bundled one when installed, else Node 22 from npm through `npx`
 */
export function oldNodeMessage(facts: OldNodeFacts): string {
  const command = [facts.script, ...facts.argv].map(shellWord).join(' ');
  const head = `error: dsh-lsp-actions needs Node ${facts.minimum} or newer; this is Node ${facts.version} (${facts.execPath})\n`;
  if (facts.bundled !== undefined) {
    const args = facts.argv.map(shellWord).join(' ');
    return (
      head +
      `Run the same command on the Node 22 this package brings (its \`node\` dev dependency):\n` +
      `  ${shellWord(facts.bundled)} ${command}\n` +
      `or: npm exec --prefix ${shellWord(facts.packageRoot)} -- dsh-lsp-actions ${args}   ('npx dsh-lsp-actions …' inside that folder)\n` +
      `--help and --version work on any Node.\n`
    );
  }
  return (
    head +
    `Install Node ${facts.minimum}+ (or 24+), or run the same command on Node 22 from npm (downloaded once):\n` +
    `  npx -y -p node@22 node ${command}\n` +
    `--help and --version work on any Node.\n`
  );
}
