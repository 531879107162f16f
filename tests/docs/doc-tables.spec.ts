/**
 * Keeps the reference tables true against the code: docs/plugin.md's Config and error tables
 * (every key the schema accepts, with its default, and every code the package can produce — and
 * nothing documented that the code lacks), docs/editor-protocol.md's codes, `editor.*` table and
 * LSP enumerations, and docs/vscode.md's settings table against the extension's manifest.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CompletionItemKind, DiagnosticSeverity, DiagnosticTag, InlayHintKind, SymbolKind } from 'vscode-languageserver-protocol';
import { resolveConfig } from '../../src/config.ts';
import { ACTION_ERROR_CODES } from '../../src/errors.ts';

const root = join(import.meta.dirname, '..', '..');
const page = (name: string): string => readFileSync(join(root, 'docs', name), 'utf8');
const pluginDoc = page('plugin.md');
const protocolDoc = page('editor-protocol.md');
const vscodeDoc = page('vscode.md');

/** The text of the `## heading` section of a page, up to the next `## `. */
function section(text: string, heading: string, name: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `${name} has a "${heading}" section`);
  const rest = text.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  return next < 0 ? rest : rest.slice(0, next);
}

/** The backticked first cells of a Markdown table's rows. */
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

test('docs/plugin.md: the Config table lists exactly the keys the schema accepts, with their defaults', () => {
  const config = resolveConfig({ servers: { x: { command: 'x' } } });
  const serverKeys = Object.keys(config.servers['x'] ?? {}).map((k) => `servers.<id>.${k}`);
  const expected = [...keysOf(config as unknown as Record<string, unknown>), ...serverKeys].sort();
  const table = section(pluginDoc, 'Config', 'docs/plugin.md');
  assert.deepEqual(firstColumn(table).sort(), expected);
  const defaults = resolveConfig({});
  const nested = Object.entries(defaults.editFeedback).map(([key, value]) => [`editFeedback.${key}`, value] as const);
  for (const [key, value] of [...Object.entries(defaults), ...nested]) {
    if (typeof value === 'number' || typeof value === 'boolean') {
      assert.match(table, new RegExp(`\\| \`${key}\` \\| \`${String(value)}\` \\|`), `${key} default`);
    }
  }
});

test('docs/plugin.md: the error table lists exactly the codes the package produces', () => {
  const documented = firstColumn(section(pluginDoc, 'Errors', 'docs/plugin.md')).sort();
  assert.deepEqual(documented, [...ACTION_ERROR_CODES].sort());
});

test('docs/editor-protocol.md names every code that can reach the wire', () => {
  for (const code of ACTION_ERROR_CODES) assert.ok(protocolDoc.includes(code), code);
});

test('docs/editor-protocol.md: the editor.* table lists exactly the editor keys, with their defaults', () => {
  const editor = resolveConfig({}).editor as unknown as Record<string, unknown>;
  const table = section(protocolDoc, '11. Configuration (`editor.*`)', 'docs/editor-protocol.md');
  assert.deepEqual(firstColumn(table).sort(), Object.keys(editor).sort());
  for (const [key, value] of Object.entries(editor)) {
    const shown = Array.isArray(value) ? JSON.stringify(value) : String(value);
    assert.match(table, new RegExp(`\\| \`${key}\` \\| \`${shown.replace(/[[\]]/g, '\\$&')}\` \\|`), `editor.${key} default`);
  }
});

/** Rows `| \`N\` | Name …` of every table in `text`, as N → the first word of the name. */
function numbered(text: string): Map<number, string> {
  const found = new Map<number, string>();
  for (const line of text.split('\n')) {
    for (const [, n, name] of line.matchAll(/\| `(\d+)` \| (\w+)/g)) found.set(Number(n), name ?? '');
  }
  return found;
}

test('docs/editor-protocol.md §14: the numeric kinds are exactly LSP 3.17\'s values', () => {
  const shapes = section(protocolDoc, '14. Shapes and enumerations', 'docs/editor-protocol.md');
  const block = (title: string): string => {
    const start = shapes.indexOf(`**${title}**`);
    assert.ok(start >= 0, `§14 has "${title}"`);
    const end = shapes.indexOf('\n**', start + 2);
    return shapes.slice(start, end < 0 ? undefined : end);
  };
  const cases: Array<[string, Record<string, unknown>]> = [
    ['Diagnostic severity', DiagnosticSeverity],
    ['Diagnostic tag', DiagnosticTag],
    ['Symbol kind', SymbolKind],
    ['Completion item kind', CompletionItemKind],
    ['Inlay hint kind', InlayHintKind],
  ];
  for (const [title, enumeration] of cases) {
    const expected = new Map(
      Object.entries(enumeration)
        .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
        .map(([name, value]) => [value, name]),
    );
    const documented = numbered(block(title));
    assert.deepEqual([...documented.keys()].sort((a, b) => a - b), [...expected.keys()].sort((a, b) => a - b), `${title}: values`);
    for (const [value, name] of expected) {
      assert.equal(documented.get(value)?.toLowerCase(), name.toLowerCase(), `${title} ${value}`);
    }
  }
});

test('docs/vscode.md: the settings table lists exactly the extension\'s settings, with their defaults', () => {
  const manifest = JSON.parse(readFileSync(join(root, 'editors', 'vscode', 'package.json'), 'utf8')) as {
    contributes: { configuration: { properties: Record<string, { default: unknown }> } };
  };
  const properties = manifest.contributes.configuration.properties;
  assert.deepEqual(firstColumn(vscodeDoc).filter((cell) => cell.startsWith('dshLspActions.')).sort(), Object.keys(properties).sort());
  for (const [key, { default: value }] of Object.entries(properties)) {
    assert.ok(vscodeDoc.includes(`| \`${key}\` | \`${JSON.stringify(value)}\` |`) || vscodeDoc.includes(`| \`${key}\` | \`${String(value)}\` |`), `${key} default`);
  }
});
