/**
 * Preloaded into the embedded server's tsserver (`NODE_OPTIONS=--import <this module>`, set by
 * the embedded TypeScript preset): tsserver reads every source file of a configured project
 * itself — our document size limit only covers what we send — and a 50 MB `.ts` file next to
 * small ones kept it at 100 % CPU and 3 GB for over 24 minutes, every action on a tiny file
 * timing out. tsserver's own size limit covers only non-TypeScript files. This guard makes
 * `fs.readFileSync` return an empty text for a source file larger than the limit, in the
 * tsserver process only, so the project loads and small-file actions answer; the large file
 * itself is refused by the engine (`LSP_ACTION_FILE_TOO_LARGE`).
 *
 * The limit is `DSH_LSP_MAX_SOURCE_BYTES` (default 8 MiB). A file importing an oversized one
 * sees it as empty (its imports from it are reported unresolved) — the price of an answer.
 */
import fs from 'node:fs';

const SOURCE = /\.[cm]?tsx?$/i;
const DEFAULT_LIMIT = 8 * 1024 * 1024;

/** @returns whether this process is a tsserver */
function isTsserver(): boolean {
  return /tsserver(?:\.js)?$/.test(process.argv[1] ?? '');
}

if (isTsserver()) {
  const limit = Number(process.env['DSH_LSP_MAX_SOURCE_BYTES'] ?? DEFAULT_LIMIT) || DEFAULT_LIMIT;
  const original = fs.readFileSync;
  const reported = new Set<string>();
  const guarded = function (this: unknown, ...args: Parameters<typeof fs.readFileSync>): unknown {
    const [path, options] = args;
    if (typeof path === 'string' && SOURCE.test(path)) {
      let size = 0;
      try {
        size = fs.statSync(path).size;
      } catch {
        // swallowed: the original read below reports a missing file as it always did
      }
      if (size > limit) {
        if (!reported.has(path)) {
          reported.add(path);
          process.stderr.write(`[dsh-lsp-actions] ${path} (${size} bytes) is larger than ${limit} bytes; tsserver sees it as empty\n`);
        }
        const encoding = typeof options === 'string' ? options : options?.encoding;
        return encoding ? '' : Buffer.alloc(0);
      }
    }
    return Reflect.apply(original, this, args);
  };
  fs.readFileSync = guarded as typeof fs.readFileSync;
}
