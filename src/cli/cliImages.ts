/**
 * `--image PATH`: the files read and checked before anything starts (the core's rule, imageParts.ts),
 * so a 50 MB screenshot, a BMP or a missing file is a usage error naming the option and the file,
 * exit 2, with no server started and no model called. A file over the size cap is refused by its
 * size, unread. Relative paths are the shell's, like any file argument.
 */
import { readFileSync, statSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { checkImages, sizeRefusal } from '../agent/imageParts';
import type { ImagePart } from '../agent/messages';
import { UsageError } from './exitCodes';

function readOne(path: string, cwd: string): { name: string; data: string } {
  const full = resolve(cwd, path);
  const name = basename(full);
  let size: number;
  try {
    size = statSync(full).size;
  } catch (error) {
    throw new UsageError(`--image ${path}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
  const tooBig = sizeRefusal(name, size);
  if (tooBig !== undefined) throw new UsageError(`--image ${path}: ${tooBig}`);
  return { name, data: readFileSync(full).toString('base64') };
}

export function readCliImages(paths: readonly string[], cwd: string): ImagePart[] {
  if (paths.length === 0) return [];
  const { images, refusals } = checkImages(paths.map((path) => readOne(path, cwd)), 'A prompt');
  if (refusals.length > 0) throw new UsageError(`--image: ${refusals.join(' ')}`);
  return images;
}
