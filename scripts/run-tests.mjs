// Runs the test suites with Node's own test runner on the project's Node (>= 22.19, from the
// `node` dev dependency): unit specs (*.spec.ts) in parallel, then end-to-end tests (*.e2e.ts)
// one file at a time, since they start real language servers on a 2-core machine.
// Usage: node scripts/run-tests.mjs [unit|e2e|all] [extra node --test args…]
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const [which = 'all', ...extra] = process.argv.slice(2);

function find(dir, suffix, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'fixtures' || name === 'servers') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) find(full, suffix, out);
    else if (name.endsWith(suffix)) out.push(relative(root, full));
  }
  return out.sort();
}

function run(files, concurrency) {
  if (files.length === 0) return 0;
  const args = ['--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...extra, ...files];
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  return result.status ?? 1;
}

let status = 0;
// The VS Code extension's pure specs run here too; its real-VS-Code layer is `npm run test:vscode`.
const unitSpecs = () => [...find(join(root, 'tests'), '.spec.ts'), ...find(join(root, 'editors', 'vscode', 'test', 'unit'), '.spec.ts')];
if (which === 'unit' || which === 'all') status |= run(unitSpecs(), 2);
if (which === 'e2e' || which === 'all') status |= run(find(join(root, 'tests'), '.e2e.ts'), 1);
process.exit(status);
