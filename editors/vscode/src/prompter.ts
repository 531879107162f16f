/**
 * Questions the extension asks the user (the workspace-backend trust prompt, the first-run
 * coexistence offer), as notifications with buttons. Every question is also recorded with an id
 * so the extension-host tests — where VS Code's smoke-test driver hides notification toasts — can
 * see it and answer it the way a click would.
 */
import * as vscode from 'vscode';

/** A question asked. */
export interface AskedQuestion {
  id: string;
  message: string;
  choices: string[];
  /** The answer, once given (undefined: dismissed or still open). */
  answer?: string;
  answered: boolean;
}

/** Asks and records. */
export class Prompter {
  readonly asked: AskedQuestion[] = [];
  readonly #answerers = new Map<AskedQuestion, (choice: string | undefined) => void>();

  /**
   * @param id a stable id (`trust:<folder>`, `coexistence`)
   * @param level warning (trust) or info
   * @param message the question
   * @param choices the buttons
   * @returns the chosen button, undefined when dismissed
   */
  ask(id: string, level: 'warning' | 'info', message: string, choices: string[]): Promise<string | undefined> {
    const question: AskedQuestion = { id, message, choices, answered: false };
    this.asked.push(question);
    return new Promise((resolve) => {
      const settle = (choice: string | undefined): void => {
        if (question.answered) return;
        question.answered = true;
        if (choice !== undefined) question.answer = choice;
        this.#answerers.delete(question);
        resolve(choice);
      };
      this.#answerers.set(question, settle);
      const show = level === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
      void show(message, ...choices).then(settle, () => settle(undefined));
    });
  }

  /**
   * Answers the oldest open question with this id, as clicking its button would.
   * @param id the question's id
   * @param choice one of its choices
   * @returns whether an open question was answered
   */
  answer(id: string, choice: string): boolean {
    const question = this.asked.find((q) => q.id === id && !q.answered);
    if (question === undefined || !question.choices.includes(choice)) return false;
    this.#answerers.get(question)?.(choice);
    return true;
  }
}
