/**
 * The REAL harness services for tests (harness-notes §3.2 variant A): a plain cordis `Context`
 * with `@deepseek-ai/dsh-subprocess-local` and `@deepseek-ai/dsh-fs-local` mounted, so the
 * engine spawns and reads exactly as it does inside DeepSeek Harness.
 */
import { Context } from '@deepseek-ai/cordis';
import type { FileSystem } from '@deepseek-ai/dsh-fs';
import { LocalFileSystem } from '@deepseek-ai/dsh-fs-local';
import type { SubprocessRuntime } from '@deepseek-ai/dsh-subprocess';
import { LocalSubprocessRuntime } from '@deepseek-ai/dsh-subprocess-local';

/** Mounted services plus their disposer. */
export interface HarnessServices {
  ctx: Context;
  subprocess: SubprocessRuntime;
  fs: FileSystem;
  /** Disposes the context: the subprocess service terminates any process it still owns. */
  dispose(): Promise<void>;
}

/**
 * @param cwd base directory for relative fs paths (tests pass absolute paths anyway)
 * @returns the real local subprocess and fs services
 */
export async function createHarnessServices(cwd: string = process.cwd()): Promise<HarnessServices> {
  const ctx = new Context();
  await ctx.plugin(LocalSubprocessRuntime);
  await ctx.plugin(LocalFileSystem, { cwd });
  return {
    ctx,
    subprocess: ctx.subprocess,
    fs: ctx.fs,
    async dispose() {
      await ctx.registry.delete(LocalFileSystem);
      await ctx.registry.delete(LocalSubprocessRuntime);
    },
  };
}
