/**
 * The files of the compiler project tsserver has a file in (`projectInfo` with
 * `needFileNameList`), through typescript-language-server's `typescript.tsserverRequest`
 * passthrough: the program's root files plus everything they import — files a tsconfig's
 * `include` does not name but the program (and so `tsc -p`) checks — and the default libraries.
 */
import type { LanguageClient } from './language-client.ts';
import { isObject } from './normalize-common.ts';
import { PIPELINED, TSSERVER_REQUEST_COMMAND } from './tsserver-diagnostics.ts';

/**
 * @param client a server offering {@link TSSERVER_REQUEST_COMMAND}
 * @param path absolute path of a file of a loaded project (open, or asked about before)
 * @param signal cancels
 * @returns absolute file names of the project, or undefined when tsserver has no project for the
 *   file (`No Project`, or an answer without a list)
 */
export async function requestProjectFiles(client: LanguageClient, path: string, signal?: AbortSignal): Promise<string[] | undefined> {
  let answer: unknown;
  try {
    answer = await client.requestUnloaded<unknown>(
      'workspace/executeCommand',
      { command: TSSERVER_REQUEST_COMMAND, arguments: ['projectInfo', { file: path, needFileNameList: true }, PIPELINED] },
      signal,
    );
  } catch (error) {
    if (signal?.aborted) throw error;
    return undefined;
  }
  if (!isObject(answer) || answer.success !== true || !isObject(answer.body) || !Array.isArray(answer.body.fileNames)) return undefined;
  return answer.body.fileNames.filter((name): name is string => typeof name === 'string');
}
