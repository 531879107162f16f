/**
 * Boots a composition the way `@deepseek-ai/cordis/bin.js` does — a root `Context`, the cordis
 * Loader, the rows — and waits for the Loader before anyone is answered. A user's `cordis.yml`
 * goes through `@deepseek-ai/cordis-plugin-include` exactly as with the cordis bin (relative
 * plugin names resolve against the file's directory); the default composition's rows are
 * created in the Loader's in-memory root tree, so nothing is written to disk.
 *
 * Logs go to stderr only: stdout belongs to the editor protocol (`serve`) or the report (`check`).
 */
import { Context, Logger, type Exporter, type Message } from '@deepseek-ai/cordis';
import { Loader } from '@deepseek-ai/cordis-plugin-loader';
import { pathToFileURL } from 'node:url';
import type { LspActionsApi } from '../lsp-actions-api.ts';
import { type CompositionEntry, resolvePluginName } from './default-composition.ts';
import { useConfigRelativeImports } from './module-importer.ts';
import { errorMessage, guardTeardown, logsAt } from './cli-io.ts';
import type { LogLevel } from './parse-args.ts';

/** What to boot: generated rows, or a user's cordis.yml. */
export type CompositionSource =
  | { kind: 'entries'; entries: readonly CompositionEntry[] }
  | { kind: 'file'; path: string };

/** How to boot. */
export interface BootOptions {
  /** Directory relative plugin names and config paths resolve against. */
  baseDir: string;
  logLevel: LogLevel;
  /** Where logs go. */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Upper bound for every row to load (a row waiting for a service nobody provides never does). */
  timeoutMs?: number;
  /** The CLI owns the process: errors from dying server connections during teardown do not crash it. */
  guardTeardown?: boolean;
}

/** A booted composition. */
export interface BootedComposition {
  ctx: Context;
  /** The plugin's service, when the composition mounted it. */
  lspActions(): LspActionsApi | undefined;
  /**
   * Disposes every plugin (the plugin stops its language servers; the subprocess provider
   * terminates any process tree still alive). Resolves after `timeoutMs` at the latest.
   * @returns whether disposal finished in time
   */
  dispose(timeoutMs?: number): Promise<boolean>;
}


/**
 * @param stderr the log stream
 * @param level the most verbose level written
 * @returns a cordis logger exporter writing one line per message
 */
export function stderrExporter(stderr: NodeJS.WritableStream & { isTTY?: boolean }, level: LogLevel): Exporter {
  const writes = logsAt(level);
  const exporter: Exporter = {
    colors: stderr.isTTY ? 3 : false,
    // Let every message through to `export`, which filters by type (cordis ranks warn below info).
    levels: { default: 3 },
    export(message: Message) {
      if (!writes(message.type)) return;
      stderr.write(`${message.type} [${message.name}] ${Logger.format(exporter, message)}\n`);
    },
  };
  return exporter;
}

/**
 * @param source rows or a cordis.yml
 * @param options base directory, log level, log stream
 * @returns the composition, after the Loader settled
 * @throws Error when a row fails to import or apply (the composition is disposed first)
 */
export async function bootComposition(source: CompositionSource, options: BootOptions): Promise<BootedComposition> {
  const ctx = new Context();
  ctx.baseUrl = `${pathToFileURL(options.baseDir).href}/`;
  ctx.logger.exporter(stderrExporter(options.stderr, options.logLevel));
  const booted: BootedComposition = {
    ctx,
    lspActions: () => ctx.get('lspActions') as LspActionsApi | undefined,
    dispose: (timeoutMs = 15_000) => {
      if (options.guardTeardown) guardTeardown(options.stderr, options.logLevel);
      return disposeWithin(ctx, timeoutMs);
    },
  };
  try {
    await ctx.plugin(Loader);
    useConfigRelativeImports(ctx.loader);
    await within(mount(ctx, source), options.timeoutMs ?? 60_000);
  } catch (error) {
    await booted.dispose();
    throw error;
  }
  return booted;
}

async function mount(ctx: Context, source: CompositionSource): Promise<void> {
  if (source.kind === 'file') {
    await ctx.loader.create({
      name: resolvePluginName('@deepseek-ai/cordis-plugin-include'),
      config: { path: pathToFileURL(source.path).href },
    });
  } else {
    const outcomes = await Promise.allSettled(source.entries.map((entry) => ctx.loader.create({ ...entry })));
    const failures = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, failures.map(errorMessage).join('; '));
  }
  await ctx.loader.await();
}

async function within(work: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`rows still loading after ${timeoutMs} ms (a row may wait for a service no row provides)`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function disposeWithin(ctx: Context, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([
      ctx.root.fiber.dispose().then(
        () => true,
        (error: unknown) => {
          ctx.logger('dsh-lsp-actions').warn('dispose failed: %s', errorMessage(error));
          return true;
        },
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
