/**
 * Images for the chat's message box, checked by the core's rule (imageParts.ts) before the box shows
 * them: one pasted or dropped there (`checkImage`), one picked with Attach (a file dialog), and those a
 * message is sent with, checked again (the webview's word is not taken). The refusals are the rule's
 * words, so the chat, the CLI and tool results refuse alike.
 */
import * as vscode from 'vscode';
import { MAX_IMAGES_PER_MESSAGE, checkImage, checkImages, sizeRefusal } from '../../agent/imageParts';
import type { ImagePart } from '../../agent/messages';
import type { ImageInput, ImageView } from '../../shared/protocol';

export type ImageAnswer = { image: ImageView | null; refusal?: string };

const FULL = `A prompt may carry at most ${MAX_IMAGES_PER_MESSAGE} images; send these first, or remove one.`;

function answer(name: string, data: string, held: number): ImageAnswer {
  if (held >= MAX_IMAGES_PER_MESSAGE) return { image: null, refusal: FULL };
  const checked = checkImage(name, data);
  if (!checked.ok) return { image: null, refusal: checked.reason };
  return { image: { name: checked.image.name, mimeType: checked.image.mimeType, data: checked.image.data } };
}

/** An image pasted or dropped into the box, which holds `held` already. */
export function checkComposerImage(image: ImageInput, held: number): ImageAnswer {
  return answer(image.name, image.data, held);
}

/** A file dialog for an image; its bytes are read only when its size is under the cap. Undefined when cancelled. */
export async function pickImage(held: number): Promise<ImageAnswer | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const [uri] =
    (await vscode.window.showOpenDialog({
      title: 'Sprout: Attach an image',
      canSelectMany: false,
      openLabel: 'Attach',
      filters: { Images: ['png', 'jpg', 'jpeg', 'gif', 'webp'] },
      ...(folder ? { defaultUri: folder } : {}),
    })) ?? [];
  if (uri === undefined) return undefined;
  const name = uri.path.split('/').pop() ?? 'image';
  try {
    const tooBig = sizeRefusal(name, (await vscode.workspace.fs.stat(uri)).size);
    if (tooBig !== undefined) return { image: null, refusal: tooBig };
    return answer(name, Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('base64'), held);
  } catch (error) {
    return { image: null, refusal: `${name} could not be read: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** The images a message was sent with, checked again; what is refused is said and not sent. */
export function checkSentImages(images: readonly ImageInput[] | undefined): { images: ImagePart[]; refusals: string[] } {
  return checkImages(images ?? []);
}
