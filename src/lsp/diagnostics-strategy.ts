/**
 * The one place that decides how a server's diagnostics are obtained, from what it offers right
 * now (re-evaluated on every wake-up: pyright registers pull after `initialized`). Strongest first:
 *
 * 1. `pull` — `textDocument/diagnostic` (static or registered), unless the server answered
 *    MethodNotFound.
 * 2. `tsserver` — request passthrough (`typescript.tsserverRequest` in
 *    `executeCommandProvider.commands`): tsserver's synchronous diagnostics for the version just
 *    sent; fresh by construction. Skipped when forced off or after it failed.
 * 3. `versioned-push` — pushes that carry `version` (the server has sent one): attributed to
 *    that version, still settled (a server may push partial lists).
 * 4. `push` — unversioned pushes attributed by timing, settled, silence nudged (the fallback).
 *
 * See docs/decisions/0001-diagnostics-freshness.md.
 */

import type { DiagnosticsStrategy } from './engine-types.ts';

export type { DiagnosticsStrategy };

/** What the decision looks at. */
export interface StrategyInputs {
  /** The server offers `textDocument/diagnostic` now. */
  pull: boolean;
  /** It answered a pull with MethodNotFound. */
  pullUnsupported: boolean;
  /** It advertises `typescript.tsserverRequest`. */
  tsserver: boolean;
  /** Push only (`forceDiagnosticsStrategy: 'push'`, benchmarks and comparisons). */
  forcePush: boolean;
  /** It has published diagnostics with a `version`. */
  versionedPush: boolean;
}

/**
 * @param inputs what the server offers
 * @returns the strategy to use for this attempt
 */
export function chooseDiagnosticsStrategy(inputs: StrategyInputs): DiagnosticsStrategy {
  if (inputs.forcePush) return inputs.versionedPush ? 'versioned-push' : 'push';
  if (inputs.pull && !inputs.pullUnsupported) return 'pull';
  if (inputs.tsserver) return 'tsserver';
  return inputs.versionedPush ? 'versioned-push' : 'push';
}

/**
 * @param strategy a strategy
 * @returns the LSP delivery mode reported in results (`pull` = the client asks)
 */
export function deliveryMode(strategy: DiagnosticsStrategy): 'pull' | 'push' {
  return strategy === 'pull' || strategy === 'tsserver' ? 'pull' : 'push';
}
