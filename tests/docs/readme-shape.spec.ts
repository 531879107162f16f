/**
 * The README stays a page a newcomer reads in five minutes (issue 24): short, the Node
 * requirement before the first command that needs it, and every reference page in docs/ linked
 * from it directly.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');

test('README.md is at most ~250 lines', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 260, `README.md has ${lines} lines; move reference material to docs/`);
});

test('the Node requirement comes before the first command', () => {
  const requirement = readme.indexOf('\n## Requirements\n');
  const firstCommand = readme.indexOf('```bash');
  assert.ok(requirement >= 0, 'README has a Requirements section');
  assert.ok(requirement < firstCommand, 'Requirements precede the first bash block');
  assert.match(readme.slice(requirement, firstCommand), /Node 22\.19 or newer/);
});

test('every reference page in docs/ is linked from the README itself', () => {
  const pages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'));
  const missing = pages.filter((page) => !readme.includes(`](docs/${page}`));
  assert.deepEqual(missing, []);
  assert.ok(readme.includes('](docs/decisions/README.md)'), 'the decisions index is linked');
});
