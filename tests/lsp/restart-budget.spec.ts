import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RestartBudget } from '../../src/lsp/restart-budget.ts';

describe('RestartBudget', () => {
  it('backs off exponentially and gives up after more than maxRestarts crashes in the window', () => {
    let now = 0;
    const budget = new RestartBudget(2, 60_000, () => now);
    assert.equal(budget.backoffMs, 0);
    budget.recordCrash();
    assert.equal(budget.backoffMs, 250);
    now = 1000;
    budget.recordCrash();
    assert.equal(budget.backoffMs, 500);
    assert.equal(budget.gaveUp, false, 'two crashes are within maxRestarts 2');
    now = 2000;
    budget.recordCrash();
    assert.equal(budget.gaveUp, true);
    assert.equal(budget.retryAfterMs, 58_000);
    now = 60_001;
    assert.equal(budget.gaveUp, false, 'the first crash left the window');
    assert.equal(budget.recent, 2);
  });

  it('caps the backoff at a quarter of the window', () => {
    const budget = new RestartBudget(10, 2000, () => 0);
    for (let i = 0; i < 8; i++) budget.recordCrash();
    assert.equal(budget.backoffMs, 500);
  });
});
