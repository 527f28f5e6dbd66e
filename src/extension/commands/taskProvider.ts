/**
 * The `sprout` task type: `{"type": "sprout", "prompt": "..."}` in tasks.json runs an agent prompt from
 * "Run Task" in a terminal, streaming the answer and hook activity. The task's exit code is the CLI's
 * (0 normal end, 4 a hook objection left standing, 3 max rounds, 1 an error), so a task and a CI job
 * running the same prompt fail alike. Closing the terminal cancels the run. What it prints comes from
 * outside (the prompt from tasks.json, model, tool and hook text, error messages) and goes through the
 * terminal neutraliser, as the CLI's output does.
 */
import * as vscode from 'vscode';
import { RECLASSIFIED_TEXT_NOTE, type AgentEvent, type Outcome } from '../../agent/events';
import { errorMessage } from '../../agent/errorMessage';
import { terminalWriter } from '../../platform/terminalText';
import { EXIT_ERROR, exitCodeForOutcome } from '../../runtime/exitCodes';

export const TASK_TYPE = 'sprout';

export type PromptRunner = (prompt: string, onEvent: (event: AgentEvent) => void, signal: AbortSignal) => Promise<Outcome>;

function describe(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'text_delta':
      return event.delta;
    case 'text_reclassified':
      // A terminal cannot take text back: it says so, as the CLI does on a terminal.
      return `\n${RECLASSIFIED_TEXT_NOTE}\n`;
    case 'tool_started':
      return `\n[tool] ${event.name} ${event.arguments}\n`;
    case 'hook_objected':
      return `\n[hook objection from ${event.server} ${event.rejectionsUsed}/${event.maxRejections}] ${event.text}\n`;
    case 'outcome': {
      const { reason, message, unresolved } = event.outcome;
      const standing = unresolved ? `, hook objection unresolved (${unresolved.cause.replace('_', ' ')}) from ${unresolved.objections.map((o) => o.server).join(', ')}` : '';
      return `\n[turn ended: ${reason}${standing}${message ? ` – ${message}` : ''}]\n`;
    }
    default:
      return undefined;
  }
}

/** What a task's terminal was sent, for observers (the extension-host tests read it back). */
export type TerminalTap = (text: string) => void;

function terminalFor(prompt: string, run: PromptRunner, tap?: TerminalTap): vscode.Pseudoterminal {
  const write = new vscode.EventEmitter<string>();
  const close = new vscode.EventEmitter<number>();
  const abort = new AbortController();
  // Neutralised first (which drops any carriage return), then every newline made the CRLF a terminal wants.
  const out = terminalWriter({
    write: (text: string) => {
      const crlf = text.replace(/\n/g, '\r\n');
      tap?.(crlf);
      write.fire(crlf);
    },
  });
  return {
    onDidWrite: write.event,
    onDidClose: close.event,
    open: () => {
      out.write(`Sprout: ${prompt}\n`);
      run(prompt, (event) => {
        const text = describe(event);
        if (text) out.write(text);
      }, abort.signal)
        .then((outcome) => close.fire(exitCodeForOutcome(outcome)))
        .catch((error: unknown) => {
          out.write(`\nSprout failed: ${errorMessage(error)}\n`);
          close.fire(EXIT_ERROR);
        });
    },
    close: () => abort.abort(),
  };
}

export function sproutTask(definition: vscode.TaskDefinition & { prompt?: unknown }, run: PromptRunner, scope: vscode.WorkspaceFolder | vscode.TaskScope, tap?: TerminalTap): vscode.Task | undefined {
  if (typeof definition.prompt !== 'string' || definition.prompt.trim() === '') return undefined;
  const prompt = definition.prompt;
  const title = prompt.length > 40 ? `${prompt.slice(0, 39)}…` : prompt;
  return new vscode.Task(definition, scope, title, 'sprout', new vscode.CustomExecution(async () => terminalFor(prompt, run, tap)));
}

export function registerTaskProvider(run: PromptRunner, tap?: TerminalTap): vscode.Disposable {
  return vscode.tasks.registerTaskProvider(TASK_TYPE, {
    provideTasks: () => [],
    resolveTask: (task) => sproutTask(task.definition, run, task.scope ?? vscode.TaskScope.Workspace, tap),
  });
}
