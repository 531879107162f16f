/**
 * Keeps the README's Config and error tables and docs/editor-protocol.md true: every key the
 * schema accepts and every code the package can produce is documented, and nothing documented
 * is missing from the code.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { resolveConfig } from '../../src/config.ts';
import { ACTION_ERROR_CODES } from '../../src/errors.ts';

const root = join(import.meta.dirname, '..', '..');
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const protocolDoc = readFileSync(join(root, 'docs', 'editor-protocol.md'), 'utf8');

function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `README has a "${heading}" section`);
  const rest = text.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  return next < 0 ? rest : rest.slice(0, next);
}

function firstColumn(table: string): string[] {
  return table
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => /^\| `([^`]+)`/.exec(line)?.[1] ?? '');
}

function keysOf(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && (key === 'editor' || key === 'editFeedback')
      ? keysOf(v as Record<string, unknown>, `${prefix}${key}.`)
      : [`${prefix}${key}`],
  );
}

test('the Config table lists exactly the keys the schema accepts, with their defaults', () => {
  const config = resolveConfig({ servers: { x: { command: 'x' } } });
  const serverKeys = Object.keys(config.servers['x'] ?? {}).map((k) => `servers.<id>.${k}`);
  const expected = [...keysOf(config as unknown as Record<string, unknown>), ...serverKeys].sort();
  const documented = firstColumn(section(readme, 'Config')).sort();
  assert.deepEqual(documented, expected);
  const defaults = resolveConfig({});
  const nested = Object.entries(defaults.editFeedback).map(([key, value]) => [`editFeedback.${key}`, value] as const);
  for (const [key, value] of [...Object.entries(defaults), ...nested]) {
    if (typeof value === 'number' || typeof value === 'boolean') {
      assert.match(section(readme, 'Config'), new RegExp(`\\| \`${key}\` \\| \`${String(value)}\` \\|`), `${key} default`);
    }
  }
});

test('the error table lists exactly the codes the package produces', () => {
  const documented = firstColumn(section(readme, 'Errors')).sort();
  assert.deepEqual(documented, [...ACTION_ERROR_CODES].sort());
});

test('docs/editor-protocol.md names every code that can reach the wire', () => {
  for (const code of ACTION_ERROR_CODES) assert.ok(protocolDoc.includes(code), code);
});
