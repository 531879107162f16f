/**
 * The files that import a file, as tsserver's program resolved them (`fileReferences`, the
 * request behind an editor's "find file references"), through typescript-language-server's
 * `typescript.tsserverRequest` passthrough: every `import`, `export … from`, `require`,
 * `import()` and `/// <reference path>` of the project that resolves to the file. Edit feedback
 * uses it to find the files whose problems a write could change.
 */
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';
import { PIPELINED, TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.ts';

/**
 * @param client a server offering {@link TSSERVER_REQUEST_COMMAND}
 * @param path absolute path of a file of a loaded project
 * @param signal cancels
 * @returns absolute paths of the files importing it (each once), or undefined when tsserver
 *   cannot say (no project for the file, or an answer without a list)
 */
export async function requestFileImporters(client: LanguageClient, path: string, signal?: AbortSignal): Promise<string[] | undefined> {
  let answer: unknown;
  try {
    answer = await client.requestUnloaded<unknown>(
      'workspace/executeCommand',
      { command: TSSERVER_REQUEST_COMMAND, arguments: ['fileReferences', { file: path }, PIPELINED] },
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  if (!isObject(answer) || answer.success !== true || !isObject(answer.body) || !Array.isArray(answer.body.refs)) return undefined;
  const files = new Set<string>();
  for (const ref of answer.body.refs) if (isObject(ref) && typeof ref.file === 'string' && ref.file !== path) files.add(ref.file);
  return [...files];
}
