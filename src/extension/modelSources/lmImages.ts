/**
 * Images for a model in VS Code, as plain parts (languageModelClient.ts makes them
 * LanguageModelDataParts, which VS Code 1.106 finalised). A user message's images follow its text; a
 * tool's follow the tool results of that user message, each headed by its label, as on the Chat
 * Completions wire (wireImages.ts), since providers such as Anthropic's want tool results first in a
 * user message. For a model that refused images, or a VS Code without data parts, each image is a line
 * saying it was not sent.
 */
import type { ImagePart } from '../../agent/messages';
import { carriedLabel, joined, notes } from '../../model/wireImages';

export type LmImageMode = 'parts' | 'note';

export type LmImagePart = { kind: 'image'; mimeType: string; data: string };
type Text = { kind: 'text'; value: string };

/** A user message's text and images. */
export function userParts(content: string, images: readonly ImagePart[] | undefined, mode: LmImageMode): (Text | LmImagePart)[] {
  const list = images ?? [];
  if (list.length > 0 && mode === 'note') return [{ kind: 'text', value: joined(content, notes(list)) }];
  const text: Text[] = content === '' ? [] : [{ kind: 'text', value: content }];
  return [...text, ...list.map((image): LmImagePart => ({ kind: 'image', mimeType: image.mimeType, data: image.data }))];
}

/** A tool's images after the results, each with its label; none in note mode (the result's text says so). */
export function toolImageParts(images: readonly ImagePart[] | undefined, mode: LmImageMode): (Text | LmImagePart)[] {
  if (mode === 'note') return [];
  return (images ?? []).flatMap((image) => [
    { kind: 'text' as const, value: carriedLabel(image) },
    { kind: 'image' as const, mimeType: image.mimeType, data: image.data },
  ]);
}

/** Tool results first in a user message, the rest after them in their order. */
export function resultsFirst<P extends { kind: string }>(parts: P[]): P[] {
  const results = parts.filter((p) => p.kind === 'toolResult');
  return results.length === 0 || results.length === parts.length ? parts : [...results, ...parts.filter((p) => p.kind !== 'toolResult')];
}
