/**
 * A chat's tool picker choice on disk, next to its transcript (`<chat>.tools.json`, in the private
 * chats folder): the tools and servers turned off. Written at once, so the choice survives a window
 * reload; a missing file is every tool on, a broken one is logged and read as every tool on.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import * as z from 'zod/mini';
import type { Logger } from '../../agent/ports';
import type { ToolSelection } from '../../agent/toolSelection';
import { errorMessage } from '../../agent/errorMessage';

const choiceSchema = z.object({ off: z.array(z.string()) });

export function readToolChoice(path: string | undefined, logger: Logger): ToolSelection {
  if (path === undefined) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  try {
    const parsed = choiceSchema.safeParse(JSON.parse(text));
    if (parsed.success) return { off: parsed.data.off };
    logger.warn('the chat\'s tool choice file is not a list of tools turned off; every tool is on', { path });
  } catch (error) {
    logger.warn('the chat\'s tool choice file could not be read; every tool is on', { path, message: errorMessage(error) });
  }
  return {};
}

export function writeToolChoice(path: string, choice: ToolSelection): void {
  writeFileSync(`${path}.tmp`, JSON.stringify({ off: [...(choice.off ?? [])] }), { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
}
