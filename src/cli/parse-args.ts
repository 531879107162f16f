/**
 * Argument parsing for `dsh-lsp-actions`: one pure function from argv (and the environment, for
 * `DSH_PERMISSION_MODE`) to a typed command, or a {@link UsageError} naming what is wrong.
 * Nothing here touches the filesystem; paths are checked by the commands.
 */
import { parseArgs as parseNodeArgs } from 'node:util';

/** Output formats of `check`. */
export const OUTPUT_FORMATS = ['text', 'json', 'sarif'] as const;
/** An output format of `check`. */
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Severities, most severe first; `--severity` names the lowest one reported. */
export const SEVERITY_NAMES = ['error', 'warning', 'info', 'hint'] as const;
/** A diagnostic severity name. */
export type SeverityName = (typeof SEVERITY_NAMES)[number];

/** The harness sandbox modes `serve` accepts. */
export const SANDBOX_MODES = ['read-only', 'workspace-write', 'danger-full-access'] as const;
/** A harness sandbox mode. */
export type SandboxModeName = (typeof SANDBOX_MODES)[number];

/** Log levels of the stderr logger. */
export const LOG_LEVELS = ['silent', 'error', 'warn', 'info', 'debug'] as const;
/** A stderr log level. */
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Options both commands share. */
export interface CommonOptions {
  /** `--workspace DIR` as given (resolved by the command). */
  workspace?: string;
  /** `--config FILE`: a user's cordis.yml instead of the default composition. */
  config?: string;
  /** `--servers FILE`: JSON/YAML server table merged over the presets. */
  servers?: string;
  logLevel: LogLevel;
}

/** `dsh-lsp-actions serve`. */
export interface ServeCommand extends CommonOptions {
  command: 'serve';
  /**
   * Every `--workspace DIR` as given, in order (repeatable: the folders of an editor window);
   * `workspace` is the first. Requests must name roots inside one of them.
   */
  workspaces?: string[];
  sandbox: SandboxModeName;
  /** Print the composition that would boot, then exit. */
  printConfig: boolean;
}

/** `dsh-lsp-actions mcp`: an MCP server on stdio over the same composition as `serve`. */
export interface McpCommand extends CommonOptions {
  command: 'mcp';
  /** Every `--workspace DIR` as given, in order; `workspace` is the first (the default root). */
  workspaces?: string[];
  sandbox: SandboxModeName;
}

/** `dsh-lsp-actions check`. */
export interface CheckCommand extends CommonOptions {
  command: 'check';
  /** Files or directories; `.` when none was given. */
  paths: string[];
  format: OutputFormat;
  /** `--wait-ms`: how long each file may wait for fresh diagnostics. */
  waitMs?: number;
  /** Lowest severity reported. */
  severity: SeverityName;
  /** Batches of files checked at once. */
  jobs: number;
  /** Progress on stderr (still only when stderr is a terminal). */
  progress: boolean;
  /** `--include-unconfigured`: also check TypeScript files outside every tsconfig program. */
  includeUnconfigured: boolean;
  /** `--all-programs`: every tsconfig program under a directory, not only its own tsconfig's and those it references. */
  allPrograms: boolean;
  /** `--typescript`: `auto` (default: the workspace's when usable), `embedded`, `workspace`, or a path. */
  typescript: string;
  /** `--pretty` (true) / `--no-pretty` (false); absent: decided by the terminal and NO_COLOR/FORCE_COLOR. */
  pretty?: boolean;
  /** `--sarif-category NAME`: the SARIF automation id's category. */
  sarifCategory?: string;
  /** `--watch`: check, then re-check on every change until interrupted. */
  watch: boolean;
}

/** Every command the parser can produce. */
export type ParsedCommand =
  | { command: 'help'; topic?: HelpTopic }
  | { command: 'version' }
  | ServeCommand
  | McpCommand
  | CheckCommand;

/** A command with its own help. */
export type HelpTopic = 'serve' | 'check' | 'mcp';

/** Wrong usage: the CLI prints the message and a hint, and exits 2. */
export class UsageError extends Error {
  /** The subcommand whose help applies, when known. */
  readonly topic: HelpTopic | undefined;

  /**
   * @param message what is wrong, naming the flag or value
   * @param topic the subcommand whose help applies
   */
  constructor(message: string, topic?: HelpTopic) {
    super(message);
    this.name = 'UsageError';
    this.topic = topic;
  }
}

const MS_MAX = 2_147_483_647;

const COMMON = {
  workspace: { type: 'string', short: 'w' },
  config: { type: 'string', short: 'c' },
  servers: { type: 'string' },
  'log-level': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

const SERVE = {
  ...COMMON,
  workspace: { type: 'string', short: 'w', multiple: true },
  sandbox: { type: 'string' },
  'print-config': { type: 'boolean' },
} as const;

const MCP = {
  ...COMMON,
  workspace: { type: 'string', short: 'w', multiple: true },
  sandbox: { type: 'string' },
} as const;

const CHECK = {
  ...COMMON,
  format: { type: 'string', short: 'f' },
  'wait-ms': { type: 'string' },
  severity: { type: 'string' },
  jobs: { type: 'string', short: 'j' },
  'no-progress': { type: 'boolean' },
  'include-unconfigured': { type: 'boolean' },
  'all-programs': { type: 'boolean' },
  typescript: { type: 'string' },
  pretty: { type: 'boolean' },
  'no-pretty': { type: 'boolean' },
  'sarif-category': { type: 'string' },
  watch: { type: 'boolean' },
} as const;

/**
 * @param argv arguments after the executable and script (`process.argv.slice(2)`)
 * @param env the environment (`DSH_PERMISSION_MODE` sets the default sandbox of `serve`)
 * @returns the parsed command
 * @throws UsageError on an unknown command, unknown flag, missing or invalid value
 */
export function parseArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): ParsedCommand {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('no command given');
  if (first === '-h' || first === '--help') return { command: 'help' };
  if (first === 'help') return { command: 'help', ...helpTopic(rest[0]) };
  if (first === '-V' || first === '--version' || first === 'version') return { command: 'version' };
  if (first === 'serve') return parseServe(rest, env);
  if (first === 'check') return parseCheck(rest);
  if (first === 'mcp') return parseMcp(rest, env);
  if (first.startsWith('-')) throw new UsageError(`unknown option '${first}' (options go after the command)`);
  const command = closestFlag(first, ['serve', 'check', 'mcp', 'help', 'version']);
  throw new UsageError(`unknown command '${first}'${command === undefined ? '' : `; did you mean '${command}'?`}`);
}

function helpTopic(word: string | undefined): { topic?: HelpTopic } {
  if (word === undefined) return {};
  if (word === 'serve' || word === 'check' || word === 'mcp') return { topic: word };
  throw new UsageError(`no help for '${word}': commands are serve, check and mcp`);
}

function parseServe(args: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  const { values, positionals } = parseWith(args, SERVE, 'serve');
  if (values.help) return { command: 'help', topic: 'serve' };
  if (positionals.length > 0) throw new UsageError(`serve takes no paths (got '${positionals[0]}')`, 'serve');
  const { sandbox, folders } = sandboxAndFolders(values, env, 'serve', 'workspace-write');
  return {
    command: 'serve',
    ...common({ ...values, workspace: folders[0] }, 'serve'),
    ...(folders.length > 0 ? { workspaces: folders } : {}),
    sandbox,
    printConfig: values['print-config'] === true,
  };
}

function parseMcp(args: readonly string[], env: Readonly<Record<string, string | undefined>>): ParsedCommand {
  const { values, positionals } = parseWith(args, MCP, 'mcp');
  if (values.help) return { command: 'help', topic: 'mcp' };
  if (positionals.length > 0) throw new UsageError(`mcp takes no paths (got '${positionals[0]}'); give folders with --workspace`, 'mcp');
  // MCP has no approval prompt: writes are allowed only when the user's configuration says so
  const { sandbox, folders } = sandboxAndFolders(values, env, 'mcp', 'read-only');
  return {
    command: 'mcp',
    ...common({ ...values, workspace: folders[0] }, 'mcp'),
    ...(folders.length > 0 ? { workspaces: folders } : {}),
    sandbox,
  };
}

/** `--sandbox` (else `DSH_PERMISSION_MODE`, else the command's default) and the `--workspace` folders of serve and mcp. */
function sandboxAndFolders(
  values: Values,
  env: Readonly<Record<string, string | undefined>>,
  topic: 'serve' | 'mcp',
  fallback: SandboxModeName,
): { sandbox: SandboxModeName; folders: string[] } {
  const envMode = env['DSH_PERMISSION_MODE'];
  const sandbox =
    values.sandbox !== undefined
      ? oneOf(values.sandbox, SANDBOX_MODES, '--sandbox', topic)
      : envMode !== undefined && envMode !== ''
        ? oneOf(envMode, SANDBOX_MODES, 'DSH_PERMISSION_MODE', topic)
        : fallback;
  if (values.config !== undefined && (values.servers !== undefined || values.sandbox !== undefined)) {
    throw new UsageError('--servers and --sandbox configure the default composition; a --config composition sets them itself', topic);
  }
  const folders = Array.isArray(values.workspace) ? values.workspace.map((folder) => nonEmpty(folder, '--workspace', topic)) : [];
  return { sandbox, folders };
}

function parseCheck(args: readonly string[]): ParsedCommand {
  const { values, positionals } = parseWith(args, CHECK, 'check');
  if (values.help) return { command: 'help', topic: 'check' };
  if (values.config !== undefined && values.servers !== undefined) {
    throw new UsageError('--servers configures the default composition; a --config composition sets its servers itself', 'check');
  }
  const waitMs = values['wait-ms'] === undefined ? undefined : integer(values['wait-ms'], '--wait-ms', 1, MS_MAX);
  if (values.pretty === true && values['no-pretty'] === true) throw new UsageError('--pretty and --no-pretty contradict each other', 'check');
  const format = values.format === undefined ? 'text' : oneOf(values.format, OUTPUT_FORMATS, '--format', 'check');
  const sarifCategory = values['sarif-category'] === undefined ? undefined : nonEmpty(String(values['sarif-category']), '--sarif-category', 'check');
  if (sarifCategory !== undefined && format !== 'sarif') throw new UsageError('--sarif-category applies to --format sarif only', 'check');
  if (values.watch === true && format !== 'text') throw new UsageError('--watch prints text; --format json and sarif are one document per run', 'check');
  return {
    command: 'check',
    ...common(values, 'check'),
    paths: positionals.length > 0 ? positionals : ['.'],
    format,
    ...(waitMs === undefined ? {} : { waitMs }),
    severity: values.severity === undefined ? 'warning' : oneOf(values.severity, SEVERITY_NAMES, '--severity', 'check'),
    jobs: values.jobs === undefined ? 4 : integer(values.jobs, '--jobs', 1, 64),
    progress: values['no-progress'] !== true,
    includeUnconfigured: values['include-unconfigured'] === true,
    allPrograms: values['all-programs'] === true,
    typescript: values.typescript === undefined ? 'auto' : nonEmpty(String(values.typescript), '--typescript', 'check'),
    ...(values.pretty === true ? { pretty: true } : values['no-pretty'] === true ? { pretty: false } : {}),
    ...(sarifCategory === undefined ? {} : { sarifCategory }),
    watch: values.watch === true,
  };
}

type Values = Record<string, string | boolean | string[] | undefined>;

function parseWith(
  args: readonly string[],
  options: typeof SERVE | typeof MCP | typeof CHECK,
  topic: HelpTopic,
): { values: Values; positionals: string[] } {
  try {
    const parsed = parseNodeArgs({ args: [...args], options, allowPositionals: true, strict: true });
    return { values: parsed.values as Values, positionals: parsed.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(withSuggestion(cleanParseMessage(message), options), topic);
  }
}

/**
 * @param message the parser's message
 * @param options the flags the command knows
 * @returns the message, with "did you mean" when an unknown flag is close to a known one
 */
function withSuggestion(message: string, options: Record<string, unknown>): string {
  const unknown = /^Unknown option '(-{1,2}[^'=]+)/.exec(message)?.[1];
  if (unknown === undefined || !unknown.startsWith('--')) return message;
  const best = closestFlag(unknown.slice(2), Object.keys(options));
  return best === undefined ? message : `${message}; did you mean '--${best}'?`;
}

/**
 * @param given a flag name without dashes, as typed
 * @param known the flag names the command knows
 * @returns the known flag within a small edit distance (or that `given` is a prefix of), if one is clearly closest
 */
export function closestFlag(given: string, known: readonly string[]): string | undefined {
  const prefixed = known.filter((name) => name.startsWith(given));
  if (given.length >= 3 && prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of known) {
    const distance = editDistance(given, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(1, Math.min(3, Math.floor(given.length / 3))) ? best : undefined;
}

/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
 * adjacent characters each cost 1, so `mpc` is one edit from `mcp` (a typo, not two).
 * @param a one word
 * @param b the other
 * @returns the number of edits
 */
export function editDistance(a: string, b: string): number {
  let beforePrevious: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitute = (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1);
      let best = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, substitute);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (beforePrevious[j - 2] as number) + 1);
      current.push(best);
    }
    beforePrevious = previous;
    previous = current;
  }
  return previous[b.length] as number;
}

function cleanParseMessage(message: string): string {
  // Node's messages end with advice about `--` that does not apply here; keep the first sentence.
  const first = message.split('. ')[0] ?? message;
  return first.replace(/\.$/, '');
}

function common(values: Values, topic: HelpTopic): CommonOptions {
  const logLevel = values['log-level'] === undefined ? 'warn' : oneOf(String(values['log-level']), LOG_LEVELS, '--log-level', topic);
  return {
    ...(typeof values.workspace === 'string' ? { workspace: nonEmpty(values.workspace, '--workspace', topic) } : {}),
    ...(typeof values.config === 'string' ? { config: nonEmpty(values.config, '--config', topic) } : {}),
    ...(typeof values.servers === 'string' ? { servers: nonEmpty(values.servers, '--servers', topic) } : {}),
    logLevel,
  };
}

function nonEmpty(value: string, flag: string, topic: HelpTopic): string {
  if (value.trim() === '') throw new UsageError(`${flag} needs a value`, topic);
  return value;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[], flag: string, topic?: HelpTopic): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got '${String(value)}')`, topic);
}

function integer(value: unknown, flag: string, min: number, max: number): number {
  const text = String(value);
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max} (got '${text}')`, 'check');
  }
  return n;
}
