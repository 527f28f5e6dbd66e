/** The status bar item: the `_Stop` budget and whether the agent is running; clicking shows the Hooks view. */
import * as vscode from 'vscode';
import type { HooksViewState } from './hooksViewState';

export function createStatusBar(hooks: HooksViewState): vscode.Disposable & { item: vscode.StatusBarItem } {
  const item = vscode.window.createStatusBarItem('sprout.status', vscode.StatusBarAlignment.Left, 50);
  item.name = 'Sprout';
  item.command = 'sprout.showHooks';
  const render = (): void => {
    const b = hooks.budget;
    const running = hooks.runState === 'running';
    const budget = b ? (b.max === 0 ? '_Stop off' : `_Stop ${b.used}/${b.max}`) : '_Stop –';
    item.text = `${running ? '$(loading~spin)' : '$(sparkle)'} Sprout ${budget}`;
    item.tooltip = `Sprout is ${running ? 'running' : 'idle'}. ${b ? `Hook budget ${b.used}/${b.max} (${b.scope}).` : ''} Click to show the Hooks view.`;
    item.accessibilityInformation = { label: `Sprout ${running ? 'running' : 'idle'}, ${budget}` };
  };
  render();
  item.show();
  const stop = hooks.onDidChange(render);
  return Object.assign(new vscode.Disposable(() => { stop(); item.dispose(); }), { item });
}
