/**
 * The images of the message box. A screenshot pasted into it, an image file dropped on it (from the
 * desktop: hold Shift over VS Code) or picked with Attach goes to the host to be checked (a type
 * models take, under the caps) and shows as a thumbnail with a remove button once accepted; for a
 * refused one the host's reason shows under the box until the next image or message. Send takes the
 * thumbnails along (the host checks them again). Reading files is the only work done here: every
 * decision, and its words, are the host's.
 */
import type { ImageInput, ImageView } from '../shared/protocol';
import { button, el } from './dom';

export type CheckImage = (id: string, image: ImageInput, held: number) => void;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };
const IMAGE_NAME = /\.(png|jpe?g|gif|webp|bmp|tiff?|svg|heic|avif|ico)$/i;

/** The file's bytes as base64 (without the `data:` prefix). */
function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(reader.error ?? new Error(`could not read ${file.name}`));
    reader.readAsDataURL(file);
  });
}

function isImageFile(file: File): boolean {
  return file.type.startsWith('image/') || IMAGE_NAME.test(file.name);
}

export class ImageTray {
  readonly element = el('div', { class: 'chips image-tray', 'data-testid': 'image-tray', hidden: '' });
  /** Why the last image was refused, until the next image or message. */
  readonly refusal = el('div', { class: 'image-refusal', role: 'alert', 'data-testid': 'image-refusal', hidden: '' });
  private images: { id: string; view: ImageView }[] = [];
  private readonly pending = new Set<string>();
  private next = 0;

  constructor(private readonly check: CheckImage) {}

  /** Pasted images into `input`, dropped files onto `target`; other pastes and drops are left alone. */
  listen(input: HTMLElement, target: HTMLElement): void {
    input.addEventListener('paste', (event) => {
      const files = [...(event.clipboardData?.files ?? [])].filter(isImageFile);
      if (files.length === 0) return;
      event.preventDefault();
      void this.add(files, true);
    });
    target.addEventListener('dragover', (event) => {
      if (!event.dataTransfer?.types.includes('Files')) return;
      event.preventDefault();
      target.classList.add('dropping');
    });
    target.addEventListener('dragleave', () => target.classList.remove('dropping'));
    target.addEventListener('drop', (event) => {
      target.classList.remove('dropping');
      const files = [...(event.dataTransfer?.files ?? [])].filter(isImageFile);
      if (files.length === 0) return;
      event.preventDefault();
      void this.add(files, false);
    });
  }

  /** Images the box holds or has sent to be checked. */
  held(): number {
    return this.images.length + this.pending.size;
  }

  /** The host's answer: shown when accepted, its reason when refused; `picked:` ids come unasked, from Attach. */
  checked(id: string, image: ImageView | null, refusal?: string): void {
    if (!this.pending.delete(id) && !id.startsWith('picked:')) return;
    if (image !== null) this.images.push({ id, view: image });
    this.showRefusal(image === null ? (refusal ?? 'The image was not attached.') : '');
    this.render();
  }

  private showRefusal(text: string): void {
    this.refusal.textContent = text;
    this.refusal.hidden = text === '';
  }

  /** The images to send with the message; the tray empties. */
  take(): ImageInput[] {
    const taken = this.images.map(({ view }) => ({ name: view.name, data: view.data }));
    this.images = [];
    this.showRefusal('');
    this.render();
    return taken;
  }

  private async add(files: File[], pasted: boolean): Promise<void> {
    this.showRefusal('');
    for (const file of files) {
      this.next += 1;
      const id = `image-${this.next}`;
      // A pasted screenshot is called `image.png` by the browser: it gets a name the chat can tell apart.
      const name = pasted ? `pasted image ${this.next}.${EXTENSIONS[file.type] ?? 'png'}` : file.name;
      this.pending.add(id);
      try {
        this.check(id, { name, data: await readBase64(file) }, this.held() - 1);
      } catch {
        this.pending.delete(id);
      }
    }
  }

  private render(): void {
    this.element.replaceChildren();
    this.element.hidden = this.images.length === 0;
    for (const image of this.images) {
      const chip = el('span', { class: 'chip image-chip', 'data-testid': 'image-chip', title: image.view.name });
      chip.append(
        el('img', { class: 'thumb', src: `data:${image.view.mimeType};base64,${image.view.data}`, alt: image.view.name }),
        el('span', { class: 'image-name' }, image.view.name),
        button({ label: `Remove ${image.view.name}`, icon: 'close', iconOnly: true, cls: 'chip-remove', onClick: () => this.remove(image.id) }),
      );
      this.element.append(chip);
    }
  }

  private remove(id: string): void {
    this.images = this.images.filter((image) => image.id !== id);
    this.render();
  }
}
