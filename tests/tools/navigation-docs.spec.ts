/**
 * docs/navigation.md stays true: one Model Experience H3 per navigation tool, in registration
 * order, with the three H4s and the description the tool registers quoted verbatim; the Config
 * row names the schema key and its default.
 */
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { resolveConfig } from '../../src/config.ts';
import { buildNavigationTools, NAVIGATION_TOOL_NAMES } from '../../src/tools/navigation-tools.ts';
import { stubRunner, toolDeps } from './tool-fixtures.ts';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'navigation.md');

function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  assert.ok(start >= 0, `docs/navigation.md has a "${heading}" section`);
  const rest = text.slice(start + 1);
  const next = rest.indexOf('\n## ', 1);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('docs/navigation.md', () => {
  it('has a Model Experience entry per navigation tool quoting its description verbatim', async () => {
    const doc = section(await readFile(DOC, 'utf8'), 'Model Experience');
    const sections = doc.split(/^### /m).slice(1);
    assert.deepEqual(sections.map((s) => s.slice(0, s.indexOf('\n'))), NAVIGATION_TOOL_NAMES.map((n) => `\`${n}\``));
    const tools = buildNavigationTools(toolDeps(stubRunner(() => ({}))));
    for (const [i, tool] of tools.entries()) {
      const entry = sections[i] ?? '';
      for (const h4 of ['#### What the model sees', '#### Token effect', '#### KV Cache effect']) assert.ok(entry.includes(`\n${h4}\n`), `${tool.name}: ${h4}`);
      assert.ok(entry.includes(`\`\`\`markdown\n${tool.description}\n\`\`\``), `${tool.name}: description quoted verbatim`);
    }
  });

  it('documents the navigation Config key with its default', async () => {
    const config = section(await readFile(DOC, 'utf8'), 'Config');
    assert.equal(resolveConfig({}).navigation, true);
    assert.match(config, /\| `navigation` \| `true` \|/);
  });
});
