/**
 * The core's Logger port over VS Code's LogOutputChannel ("Sprout" in the Output panel, where the user's
 * log level applies). Every message and data object is redacted first, with the API key as a known
 * secret, so no key or token reaches the log even when a server or the model echoes it.
 */
import type * as vscode from 'vscode';
import type { Logger } from '../agent/ports';
import { redactData, redactText } from '../runtime/streamLogger';

export function createOutputLogger(channel: vscode.LogOutputChannel, secrets: () => readonly string[]): Logger {
  const format = (message: string, data?: Record<string, unknown>): string => {
    const text = redactText(message, secrets());
    return data === undefined ? text : `${text} ${JSON.stringify(redactData(data, secrets()))}`;
  };
  return {
    debug: (message, data) => channel.debug(format(message, data)),
    info: (message, data) => channel.info(format(message, data)),
    warn: (message, data) => channel.warn(format(message, data)),
    error: (message, data) => channel.error(format(message, data)),
  };
}
