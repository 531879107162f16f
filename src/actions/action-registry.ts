import { ActionError } from '../errors.ts';
import type { ActionDefinition } from './action-definition.ts';

/** Catalog entry, as `lsp.actions.list` shows it. */
export interface ActionCatalogEntry {
  action: string;
  writes: boolean;
  description: string;
}

/**
 * The one registry of actions. Registration order is catalog order.
 */
export class ActionRegistry {
  readonly #actions = new Map<string, ActionDefinition>();

  /**
   * @param definition the action; its id must be new
   * @returns a disposer that removes it again
   */
  register<P, R>(definition: ActionDefinition<P, R>): () => void {
    if (this.#actions.has(definition.id)) {
      throw new ActionError('LSP_ACTION_CONFIG_INVALID', `action "${definition.id}" is registered twice`);
    }
    const def = definition as unknown as ActionDefinition;
    this.#actions.set(def.id, def);
    return () => {
      if (this.#actions.get(def.id) === def) this.#actions.delete(def.id);
    };
  }

  /**
   * @param id action id
   * @returns the definition
   * @throws ActionError `LSP_ACTION_UNKNOWN` when no action has that id
   */
  get(id: string): ActionDefinition {
    const def = this.#actions.get(id);
    if (!def) throw new ActionError('LSP_ACTION_UNKNOWN', `unknown action "${id}"; lsp.actions.list shows the catalog`);
    return def;
  }

  /** @returns whether an action with that id exists */
  has(id: string): boolean {
    return this.#actions.has(id);
  }

  /** @returns the catalog, in registration order */
  list(): ActionCatalogEntry[] {
    return [...this.#actions.values()].map(({ id, writes, description }) => ({ action: id, writes, description }));
  }
}
