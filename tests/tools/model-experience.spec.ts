import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Context } from '@deepseek-ai/cordis';
import { SystemPrompt } from '@deepseek-ai/dsh-system-prompt';
import { ToolRuntime } from '@deepseek-ai/dsh-tools';
import type { ActionRunner } from '../../src/actions/action-runner.ts';
import type { WriteAuthorizer } from '../../src/permission/write-authorizer-types.ts';
import { LSP_TOOL_NAMES, registerLspTools } from '../../src/tools/register-lsp-tools.ts';
import { stubRunner, toolDeps } from './tool-fixtures.ts';

const DOC = join(import.meta.dirname, '..', '..', 'docs', 'model-experience.md');

describe('docs/model-experience.md', () => {
  it('has one H3 per tool with the three H4s, and quotes each registered description verbatim', async () => {
    const page = await readFile(DOC, 'utf8');
    const start = page.indexOf('\n## Per tool\n');
    assert.ok(start >= 0, 'docs/model-experience.md has a "Per tool" section');
    const rest = page.slice(start + 1);
    const next = rest.indexOf('\n## ', 1);
    const doc = next < 0 ? rest : rest.slice(0, next);
    const deps = toolDeps(stubRunner(() => ({})), { canEscalate: true });
    const ctx = new Context();
    await ctx.plugin(SystemPrompt);
    await ctx.plugin(ToolRuntime);
    await ctx.plugin({ name: 't', inject: ['tools'], apply: (c: Context) => registerLspTools(c, { runner: deps.runner as ActionRunner, authorizer: deps.authorizer as WriteAuthorizer, config: deps.config }) });
    const sections = doc.split(/^### /m).slice(1);
    // one H3 per tool, then one per other model-context entry (edit feedback on writes)
    assert.deepEqual(sections.map((s) => s.slice(0, s.indexOf('\n'))), [...LSP_TOOL_NAMES.map((n) => `\`${n}\``), 'Edit feedback']);
    for (const h4 of ['#### What the model sees', '#### Token effect', '#### KV Cache effect']) {
      assert.ok(sections.at(-1)?.includes(`\n${h4}\n`), `Edit feedback: ${h4}`);
    }
    for (const [i, name] of LSP_TOOL_NAMES.entries()) {
      const section = sections[i] ?? '';
      for (const h4 of ['#### What the model sees', '#### Token effect', '#### KV Cache effect']) assert.ok(section.includes(`\n${h4}\n`), `${name}: ${h4}`);
      const description = ctx.tools.get(name)?.description ?? '';
      assert.ok(section.includes(`\`\`\`markdown\n${description}\n\`\`\``), `${name}: description quoted verbatim`);
    }
    await ctx.root.fiber.dispose();
  });
});
