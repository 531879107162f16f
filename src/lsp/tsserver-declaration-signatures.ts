/**
 * The declaration signatures of files, as `tsc --watch`'s builder computes them, from the
 * tsserver plugin `check --watch` loads (src/presets/declaration-signature-plugin.ts), through
 * the `typescript.tsserverRequest` passthrough (typescript-language-server's, or `check`'s own
 * tsserver bridge: decision 0111). A tsserver without the
 * plugin (another server entry, a TypeScript whose plugin API has no session) answers with an
 * error: no signature is known then.
 */
import type { DeclarationSignature } from './engine-types.ts';
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';
import { PIPELINED, TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.ts';

/** The plugin's command (src/presets/declaration-signature-plugin.ts `DECLARATION_SIGNATURES_COMMAND`). */
export const DECLARATION_SIGNATURES_COMMAND = 'dshDeclarationSignatures';

/**
 * @param client a server offering {@link TSSERVER_REQUEST_COMMAND}
 * @param paths absolute paths of files of loaded projects
 * @param signal cancels
 * @returns the signature of each file the plugin vouched for (files it could not are absent);
 *   undefined when the server could not answer at all
 */
export async function requestDeclarationSignatures(
  client: LanguageClient,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, DeclarationSignature> | undefined> {
  let answer: unknown;
  try {
    answer = await client.requestUnloaded<unknown>(
      'workspace/executeCommand',
      { command: TSSERVER_REQUEST_COMMAND, arguments: [DECLARATION_SIGNATURES_COMMAND, { files: paths }, PIPELINED] },
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  if (!isObject(answer) || answer.success !== true || !isObject(answer.body)) return undefined;
  const out = new Map<string, DeclarationSignature>();
  for (const path of paths) {
    const entry = answer.body[path];
    if (isObject(entry) && typeof entry.signature === 'string' && typeof entry.global === 'boolean' && typeof entry.program === 'string') {
      out.set(path, { signature: entry.signature, global: entry.global, program: entry.program });
    }
  }
  return out;
}
