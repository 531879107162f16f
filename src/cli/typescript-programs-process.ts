/**
 * Child process of `parseProgramsIsolated` (typescript-programs.ts): reads `{packageDir, configs}` as JSON on stdin,
 * parses the programs with that TypeScript's API (falling back to the embedded one when it does
 * not load), writes them as JSON on stdout, and exits — taking the compiler API's memory with it.
 */
import { readFileSync } from 'node:fs';
import { embeddedTypeScript } from './workspace-typescript.ts';
import { loadTypeScript, parsePrograms } from './typescript-programs.ts';

const { packageDir, configs } = JSON.parse(readFileSync(0, 'utf8')) as { packageDir: string; configs: string[] };
let ts: ReturnType<typeof loadTypeScript>;
try {
  ts = loadTypeScript(packageDir);
} catch {
  // A TypeScript whose compiler API does not load still has a tsserver; configs are read by ours.
  ts = loadTypeScript(embeddedTypeScript().packageDir);
}
process.stdout.write(JSON.stringify(parsePrograms(ts, configs)));
