/**
 * The message box: a textarea that grows with its text up to a cap (and keeps its width: Send and Stop
 * take the same place in the toolbar under it), a context bar of attached files (the current file, a
 * selection, any file; removable), the images pasted, dropped or attached (imageTray.ts), the attach
 * button, the context-usage indicator and Send / Stop. Enter sends, Shift+Enter adds a line.
 */
import type { AgentChoice, AttachmentRef, Handoff, ChatMode, ContextUsage, ImageInput, ImageView, MentionItem, ModelInUse, SlashCommandInfo } from '../shared/protocol';
import { ModePicker } from './modePicker';
import { SlashMenu } from './slashMenu';
import { MentionMenu } from './mentionMenu';
import type { CompletedMention } from '../shared/mentions';
import { button, el, icon } from './dom';
import { ImageTray, type CheckImage } from './imageTray';

export interface ComposerEvents {
  /** `agent`: the custom agent picked in the mode picker (its name), when one is. */
  send(text: string, attachments: AttachmentRef[], images: ImageInput[], mode: ChatMode, agent?: string): void;
  stop(): void;
  /** `heldImages`: the images the box holds (a picked image counts against the cap). */
  attach(heldImages: number): void;
  /** The tools button: the host's tool picker for the open chat. */
  pickTools(): void;
  checkImage: CheckImage;
  draft(text: string): void;
  /** The model button: Sprout: Select Model. */
  selectModel(): void;
  /** The `#` menu asks the host to complete `#kind:query`. */
  completeMention(kind: CompletedMention, query: string): void;
}

/** The short view of media/chat.css (the bottom panel), where the conversation keeps at least half the height. */
const SHORT_VIEW = '(max-height: 420px)';
const TOOLS_LABEL = 'Tools: turn servers and tools on or off for this chat';

function tokens(n: number): string {
  return n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

export class Composer {
  readonly form = el('form', { class: 'composer' });
  readonly input = el('textarea', {
    'data-testid': 'chat-input',
    'aria-label': 'Message Sprout. Enter sends, Shift+Enter adds a line.',
    placeholder: 'Ask Sprout about your code',
    rows: '1',
  });
  private readonly chips = el('div', { class: 'chips context-bar', 'data-testid': 'context-bar' });
  private readonly usage = el('span', { class: 'usage', 'data-testid': 'context-usage', hidden: '' });
  private readonly usageFill = el('span', { class: 'usage-fill' });
  private readonly usageText = el('span', { class: 'usage-text' });
  private readonly modelButton: HTMLButtonElement;
  private readonly sendButton: HTMLButtonElement;
  private readonly stopButton: HTMLButtonElement;
  private attachments: AttachmentRef[] = [];
  private readonly images: ImageTray;
  private readonly mode = new ModePicker();
  private readonly toolsButton = button({ label: TOOLS_LABEL, testid: 'tools', icon: 'tools', iconOnly: true, onClick: () => this.events.pickTools() });
  private readonly toolsCount = el('span', { class: 'tools-off', 'data-testid': 'tools-off', hidden: '' });
  private readonly handoffs = el('div', { class: 'handoffs', 'data-testid': 'handoffs', hidden: '' });
  private readonly slash = new SlashMenu(this.input);
  private readonly mentions: MentionMenu;
  private running = false;
  private draftTimer: ReturnType<typeof setTimeout> | undefined;

  /** The tools button's count and words: how many tools the chat turned off (none: every tool). */
  setToolsOff(count: number): void {
    this.toolsCount.hidden = count === 0;
    this.toolsCount.textContent = count === 0 ? '' : String(count);
    const label = count === 0 ? TOOLS_LABEL : `${TOOLS_LABEL} (${count} ${count === 1 ? 'tool is' : 'tools are'} off)`;
    this.toolsButton.title = label;
    this.toolsButton.setAttribute('aria-label', label);
  }

  constructor(private readonly events: ComposerEvents) {
    const box = el('div', { class: 'input-box' });
    this.mentions = new MentionMenu(this.input, (kind, query) => events.completeMention(kind, query));
    this.images = new ImageTray(events.checkImage);
    this.images.listen(this.input, this.form);
    const toolbar = el('div', { class: 'composer-toolbar' });
    this.sendButton = button({ label: 'Send (Enter)', testid: 'send', icon: 'send', iconOnly: true, cls: 'send', onClick: () => this.submit() });
    this.stopButton = button({ label: 'Stop', testid: 'stop', icon: 'debug-stop', iconOnly: true, cls: 'stop', onClick: () => this.events.stop() });
    this.stopButton.hidden = true;
    const bar = el('span', { class: 'usage-bar' });
    bar.append(this.usageFill);
    this.usage.append(bar, this.usageText);
    this.modelButton = button({ label: 'Select Model', testid: 'model-button', cls: 'model-button', onClick: () => this.events.selectModel() });
    this.modelButton.hidden = true;
    this.toolsButton.append(this.toolsCount);
    toolbar.append(
      button({ label: 'Attach a file, the selection or an image', testid: 'attach', icon: 'attach', iconOnly: true, onClick: () => this.events.attach(this.images.held()) }),
      this.mode.element,
      this.toolsButton,
      this.usage,
      el('span', { class: 'spacer' }),
      this.modelButton,
      this.sendButton,
      this.stopButton,
    );
    box.append(this.handoffs, this.slash.element, this.mentions.element, this.chips, this.images.element, this.input, toolbar);
    this.form.append(box, this.images.refusal);
    this.chips.hidden = true;
    this.form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.submit();
    });
    this.input.addEventListener('keydown', (event) => {
      if (!event.isComposing && (this.slash.key(event) || this.mentions.key(event))) return event.preventDefault();
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.submit();
      }
    });
    // A draft grown in the side bar is capped again when the view is moved to the panel or resized.
    window.addEventListener('resize', () => this.grow());
    this.input.addEventListener('input', () => {
      this.grow();
      clearTimeout(this.draftTimer);
      this.draftTimer = setTimeout(() => this.events.draft(this.input.value), 300);
    });
  }

  /** Grows to fit the text, up to about a third of the view (a quarter of a short one, whose conversation needs the room); then it scrolls. */
  grow(): void {
    this.input.style.height = 'auto';
    const cap = window.matchMedia(SHORT_VIEW).matches ? Math.round(window.innerHeight * 0.25) : Math.max(120, Math.round(window.innerHeight * 0.35));
    this.input.style.height = `${Math.min(this.input.scrollHeight + 2, cap)}px`;
  }

  setText(text: string): void {
    this.input.value = text;
    this.grow();
  }

  /** Puts a mention at the caret, a space either side where needed, as the `#` menu would. */
  insertMention(text: string): void {
    const { value, selectionStart, selectionEnd } = this.input;
    const before = value.slice(0, selectionStart);
    const after = value.slice(selectionEnd);
    const lead = before === '' || /\s$/.test(before) ? '' : ' ';
    const trail = after.startsWith(' ') ? '' : ' ';
    this.input.value = `${before}${lead}${text}${trail}${after}`;
    const caret = before.length + lead.length + text.length + trail.length;
    this.input.setSelectionRange(caret, caret);
    this.grow();
    this.input.focus();
  }

  /** The custom agents the mode picker lists after Agent, Ask and Plan. */
  setAgents(agents: readonly AgentChoice[]): void {
    this.mode.setAgents(agents);
  }

  /** The last turn's agent's handoffs as buttons: one picks its agent and puts its prompt in the box (and sends it, with `send`). */
  setHandoffs(handoffs: readonly Handoff[]): void {
    this.handoffs.replaceChildren(
      ...handoffs.map((h) =>
        button({
          label: h.label,
          testid: 'handoff',
          cls: 'handoff',
          onClick: () => {
            this.mode.pick(h.agent);
            this.setText(h.prompt ?? '');
            this.setHandoffs([]);
            if (h.send === true) this.submit();
            else this.input.focus();
          },
        }),
      ),
    );
    this.handoffs.hidden = handoffs.length === 0;
  }

  /** The commands the `/` menu offers. */
  setCommands(commands: readonly SlashCommandInfo[]): void {
    this.slash.setCommands(commands);
  }

  /** The host's completions for the `#` menu. */
  setMentionItems(kind: CompletedMention, query: string, items: readonly MentionItem[]): void {
    this.mentions.items(kind, query, items);
  }

  setRunning(running: boolean): void {
    this.running = running;
    this.stopButton.hidden = !running;
    this.sendButton.hidden = running;
  }

  /** The chat shown now: the mode picker shows the mode last picked in it, else its last message's (`lastMode`), else Agent. */
  setChat(chatId: string, lastMode?: ChatMode): void {
    this.mode.setChat(chatId, lastMode);
    this.setHandoffs([]);
  }

  /** The mode picked for the chat shown now (an approved plan switches it to Agent). */
  setMode(mode: ChatMode): void {
    this.mode.pick(mode);
  }

  addAttachment(ref: AttachmentRef): void {
    if (this.attachments.some((a) => a.label === ref.label)) return;
    this.attachments.push(ref);
    this.renderChips();
  }

  /** The host's check of an image (accepted: shown as a thumbnail). */
  imageChecked(id: string, image: ImageView | null, refusal?: string): void {
    this.images.checked(id, image, refusal);
  }

  /** The model the next prompt goes to, named on the button that changes it (hidden while the setup card asks for one). */
  setModel(model: ModelInUse | null | undefined): void {
    this.modelButton.hidden = !model;
    if (!model) return;
    const label = `Model: ${model.detail}. Select Model to change it.`;
    this.modelButton.replaceChildren(icon(model.source === 'vscode' ? 'vscode' : 'server-environment'), el('span', { class: 'model-name' }, model.label), icon('chevron-down'));
    this.modelButton.title = label;
    this.modelButton.setAttribute('aria-label', label);
  }

  setUsage(usage: ContextUsage | null | undefined): void {
    this.usage.hidden = !usage || usage.window <= 0;
    if (!usage || usage.window <= 0) return;
    const share = Math.min(1, usage.used / usage.window);
    this.usageFill.style.width = `${Math.round(share * 100)}%`;
    this.usage.classList.toggle('high', share >= 0.8);
    this.usageText.textContent = `${Math.round(share * 100)}%`;
    const label = `Context: ${tokens(usage.used)} of ${tokens(usage.window)} tokens used by the last model call${usage.estimated ? ' (estimated: the endpoint reported no usage)' : ''}. Sprout summarises older messages before it runs out.${usage.sampled === undefined ? '' : ` MCP sampling: ${tokens(usage.sampled)} tokens spent answering servers in this chat (not in the context).`}`;
    this.usage.title = label;
    this.usage.setAttribute('aria-label', label);
  }

  private renderChips(): void {
    this.chips.replaceChildren();
    this.chips.hidden = this.attachments.length === 0;
    for (const ref of this.attachments) {
      const chip = el('span', { class: 'chip', 'data-testid': 'attachment-chip', title: ref.label });
      chip.append(
        icon(ref.startLine === undefined ? 'file' : 'selection'),
        el('span', {}, ref.label),
        button({ label: `Remove ${ref.label}`, icon: 'close', iconOnly: true, cls: 'chip-remove', onClick: () => this.removeAttachment(ref) }),
      );
      this.chips.append(chip);
    }
  }

  private removeAttachment(ref: AttachmentRef): void {
    this.attachments = this.attachments.filter((a) => a !== ref);
    this.renderChips();
  }

  private submit(): void {
    const text = this.input.value.trim();
    if (text === '' || this.running) return;
    this.events.send(text, this.attachments, this.images.take(), this.mode.value(), this.mode.agent());
    this.setHandoffs([]);
    this.attachments = [];
    this.renderChips();
    this.setText('');
  }
}
