/**
 * Child process of `parseProgramsIsolated` and `syntaxErrorsIsolated` (typescript-programs.ts):
 * reads `{packageDir, configs}` or `{packageDir, syntax: files}` as JSON on stdin, parses the
 * programs (or the files) with that TypeScript's API (falling back to the embedded one when it
 * does not load), writes the answer as JSON on stdout, and exits — taking the compiler API's
 * memory with it.
 */
import { readFileSync } from 'node:fs';
import { embeddedTypeScript } from './workspace-typescript.ts';
import { loadTypeScript, parsePrograms, syntaxErrors } from './typescript-programs.ts';

const { packageDir, configs, syntax } = JSON.parse(readFileSync(0, 'utf8')) as { packageDir: string; configs?: string[]; syntax?: string[] };
let ts: ReturnType<typeof loadTypeScript>;
try {
  ts = loadTypeScript(packageDir);
} catch {
  // A TypeScript whose compiler API does not load still has a tsserver; configs are read by ours.
  ts = loadTypeScript(embeddedTypeScript().packageDir);
}
const answer = syntax === undefined ? parsePrograms(ts, configs ?? []) : syntaxErrors(ts, syntax, (path) => readFileSync(path, 'utf8'));
process.stdout.write(JSON.stringify(answer));
