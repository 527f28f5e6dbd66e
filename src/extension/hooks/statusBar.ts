/** The status bar item: the `_Stop` budget and whether the agent is running; clicking shows the Hooks view. */
import * as vscode from 'vscode';
import { budgetText } from '../../shared/budgetText';
import type { HooksViewState } from './hooksViewState';

/** Renders the Hooks view's state: its budget, and whether the open chat runs (as the chat said on the view events). */
export function createStatusBar(hooks: HooksViewState): vscode.Disposable & { item: vscode.StatusBarItem } {
  const item = vscode.window.createStatusBarItem('sprout.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Sprout';
  item.command = 'sprout.showHooks';
  const render = (): void => {
    const busy = hooks.running;
    const budget = budgetText(hooks.budget);
    item.text = `${busy ? '$(loading~spin)' : '$(sparkle)'} Sprout${budget.short ? ` · ${budget.short}` : ''}`;
    item.tooltip = `Sprout is ${busy ? 'working' : 'idle'}.${budget.sentence ? ` Completion checks: ${budget.sentence}` : ''} Click to show the Hooks view.`;
    item.accessibilityInformation = { label: `Sprout ${busy ? 'working' : 'idle'}${budget.short ? `, ${budget.short}` : ''}` };
  };
  render();
  item.show();
  const stop = hooks.onDidChange(render);
  return Object.assign(new vscode.Disposable(() => { stop(); item.dispose(); }), { item });
}
