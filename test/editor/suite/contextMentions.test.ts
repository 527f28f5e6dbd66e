// `#` mentions in a prompt, in the real extension host, with the fake model asserting what arrived:
// `#problems` carries the workspace's diagnostics (file:line severity [source] message), `#folder:` a
// listing, `#changes` the working tree's diff through VS Code's built-in git extension (and, before the
// folder is a repository, says so), and `#resource:` a resource of a real MCP server
// (@modelcontextprotocol/server-everything), which the model is also offered tools to list and read;
// the Attach menu's Resource… picks one of its resources into the box as a `#resource:` mention.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import type { HostMessage } from '../../../src/shared/protocol';
import { searchWorkspaceSymbols, symbolName } from '../../../src/extension/editorServer/workspaceSymbols';
import { sproutApi as api, fakeModelForSuite, until } from '../sproutHarness';

const workspaceFolder = process.env['SPROUT_TEST_WORKSPACE'] ?? '';
const folder = join(workspaceFolder, 'mentions');
const everything = join(__dirname, '..', '..', '..', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Sprout Test', '-c', 'user.email=test@example.com', ...args], { cwd: workspaceFolder, encoding: 'utf8' });

describe('# mentions: problems, folder, changes, resources', function () {
  this.timeout(120_000);
  const diagnostics = vscode.languages.createDiagnosticCollection('mentions-test');

  before(async () => {
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'a.txt'), 'one\ntwo\nthree\n');
    writeFileSync(join(folder, 'b.txt'), 'b\n');
    (await api()).consent.prompt = async () => true;
  });

  after(() => {
    diagnostics.dispose();
    rmSync(folder, { recursive: true, force: true });
    rmSync(join(workspaceFolder, '.git'), { recursive: true, force: true });
  });

  const servers = { everything: { command: process.execPath, args: [everything, 'stdio'], env: { ELECTRON_RUN_AS_NODE: '1' } } };
  const model = fakeModelForSuite({ models: ['fake-model'], responses: Array.from({ length: 8 }, () => fakeReply.text('ok')) }, { servers, newChat: true });
  const lastUser = model.lastUser;

  it('#problems and #folder: attach the diagnostics and the listing, fenced and labelled', async () => {
    const sprout = await api();
    const a = vscode.Uri.file(join(folder, 'a.txt'));
    const error = new vscode.Diagnostic(new vscode.Range(2, 0, 2, 5), 'three is not a number', vscode.DiagnosticSeverity.Error);
    error.source = 'mentions-test';
    diagnostics.set(a, [error, new vscode.Diagnostic(new vscode.Range(0, 0, 0, 3), 'one is odd', vscode.DiagnosticSeverity.Warning)]);
    await sprout.handle({ type: 'send', text: 'fix #problems in #folder:mentions' });
    const user = lastUser();
    assert.match(user, /^fix #problems in #folder:mentions\n\nAttached: #problems\n```\n/);
    assert.match(user, /\nmentions\/a\.txt:3 error \[mentions-test\] three is not a number\n/);
    assert.match(user, /\nmentions\/a\.txt:1 warning one is odd\n/);
    assert.match(user, /\nAttached: #folder:mentions\n```\nFolder mentions, 2 files:\nmentions\/a\.txt\nmentions\/b\.txt\n```$/);
    const shown = (await sprout.controller.current()).view.entries.filter((e) => e.kind === 'user').at(-1);
    assert.ok(shown?.kind === 'user');
    assert.deepEqual(shown.attachments, ['#problems', '#folder:mentions']);
  });

  it('#changes says when the folder is not a repository, then attaches the diff through the git extension', async () => {
    const sprout = await api();
    await sprout.handle({ type: 'send', text: 'review #changes' });
    assert.match(lastUser(), /\nAttached: #changes\n```\nNo changes attached: the workspace folder is not in a git repository\.\n```$/);
    git('init', '-q');
    git('add', 'mentions');
    git('commit', '-q', '-m', 'start');
    writeFileSync(join(folder, 'a.txt'), 'one\ntwo\nTHREE\n');
    writeFileSync(join(folder, 'new.txt'), 'new\n');
    await sprout.handle({ type: 'send', text: 'review #changes' });
    const user = lastUser();
    assert.match(user, /\nAttached: #changes\n```\nUnstaged changes:\ndiff --git a\/mentions\/a\.txt b\/mentions\/a\.txt\n/);
    assert.match(user, /\n-three\n\+THREE\n/);
    assert.match(user, /\nUntracked files:\n(.*\n)*mentions\/new\.txt\n/);
  });

  it('#resource: attaches a resource of a connected server; the model is offered the resource tools', async () => {
    const sprout = await api();
    await sprout.handle({ type: 'send', text: 'summarise #resource:everything:demo://resource/static/document/features.md' });
    const user = lastUser();
    assert.match(user, /\nAttached: #resource:everything:demo:\/\/resource\/static\/document\/features\.md\n```\nResource demo:\/\/resource\/static\/document\/features\.md \(text\/markdown\) of server "everything":\n# Everything Server - Features\n/);
    const tools = (model.fake.chatRequests().at(-1)?.body as { tools?: { function: { name: string } }[] }).tools?.map((t) => t.function.name) ?? [];
    assert.ok(tools.includes('sprout__list_resources') && tools.includes('sprout__read_resource'), tools.join(', '));
  });

  it('the Attach menu\'s Resource… lists the servers\' resources and puts the #resource: mention in the box; sent, it attaches and is watched (said once)', async () => {
    const sprout = await api();
    await vscode.commands.executeCommand('sprout.newChat');
    const asked: { title: string; labels: string[]; descriptions: string[] }[] = [];
    const real = sprout.picks.show;
    // The user's choices in the two quick picks: Resource…, then the features document.
    sprout.picks.show = async <T extends vscode.QuickPickItem>(items: T[], options: vscode.QuickPickOptions) => {
      asked.push({ title: options.title ?? '', labels: items.map((i) => i.label), descriptions: items.map((i) => i.description ?? '') });
      return items.find((i) => i.label === '$(database) Resource…' || (i.description ?? '').endsWith(' · demo://resource/static/document/features.md'));
    };
    const posted: HostMessage[] = [];
    const port = sprout.views.attach({ post: (message) => void posted.push(message), visible: () => false });
    try {
      await sprout.handle({ type: 'attach' });
    } finally {
      port.dispose();
      sprout.picks.show = real;
    }
    assert.deepEqual(asked.map((a) => a.title), ['Sprout: Attach to the prompt', 'Sprout: Attach a resource']);
    assert.ok(asked[1]?.descriptions.includes('everything · demo://resource/static/document/features.md'), asked[1]?.descriptions.join(', '));
    const mention = '#resource:everything:demo://resource/static/document/features.md';
    assert.deepEqual(posted.filter((m) => m.type === 'insertMention'), [{ type: 'insertMention', text: mention }]);
    await sprout.handle({ type: 'send', text: `summarise ${mention}` });
    assert.match(lastUser(), /\nAttached: #resource:everything:demo:\/\/resource\/static\/document\/features\.md\n```\nResource demo:\/\/resource\/static\/document\/features\.md/);
    const chat = await sprout.controller.current();
    const watching = () => chat.view.entries.filter((e) => e.kind === 'hookEvent' && e.text.startsWith(`Watching ${mention}`));
    await until(() => watching().length > 0, 'the watch note');
    await sprout.handle({ type: 'send', text: `again ${mention}` });
    assert.equal(watching().length, 1, 'said once in the chat');
  });
});

// `#terminalLastCommand` with what VS Code itself knows: a bash terminal's last command heard through
// its shell integration (a terminal without integration says so).
describe('# mentions: the last terminal command (real shell integration)', function () {
  this.timeout(150_000);
  const terminals: vscode.Terminal[] = [];

  after(() => {
    for (const terminal of terminals) terminal.dispose();
  });

  const { lastUser } = fakeModelForSuite({ models: ['fake-model'], responses: Array.from({ length: 4 }, () => fakeReply.text('ok')) }, { newChat: true });

  it('#terminalLastCommand attaches the active terminal\'s last command and its exit code; a terminal without shell integration says so', async () => {
    const sprout = await api();
    const terminal = vscode.window.createTerminal({ name: 'mentions bash', shellPath: '/bin/bash', cwd: workspaceFolder });
    terminals.push(terminal);
    const integration = await until(() => terminal.shellIntegration, 'the bash terminal\'s shell integration');
    let ended: number | undefined | 'pending' = 'pending';
    let started: vscode.TerminalShellExecution | undefined;
    const listening = [
      vscode.window.onDidStartTerminalShellExecution((e) => e.terminal === terminal && (started ??= e.execution)),
      vscode.window.onDidEndTerminalShellExecution((e) => e.terminal === terminal && e.execution === started && (ended = e.exitCode)),
    ];
    try {
      integration.executeCommand(`printf 'answer %s\\n' $((40 + 2)); false`);
      await until(() => ended !== 'pending' || undefined, 'the command to end in the terminal');
    } finally {
      for (const l of listening) l.dispose();
    }
    terminal.show(false);
    await until(() => vscode.window.activeTerminal === terminal, 'the bash terminal in front');
    await sprout.handle({ type: 'send', text: 'why did it fail? #terminalLastCommand' });
    const user = lastUser();
    assert.match(user, /^why did it fail\? #terminalLastCommand\n\nAttached: #terminalLastCommand\n```\n\$ printf 'answer %s\\n' \$\(\(40 \+ 2\)\)(; false)?\n/, user);
    // With HISTCONTROL set (the HOME's Debian .bashrc), VS Code may know only the line's first simple
    // command (bash's $BASH_COMMAND): the line is the whole one or that.
    // The folder is said when VS Code knew the shell's cwd as the command started.
    assert.match(user, /\n\(exit code 1(, in [^)\n]+)?\)\n/, user);
    // The output is there every time, though VS Code's read() stream drops a short command's output
    // about one run in two (src/extension/chat/terminalCommands.ts says why and what reads it instead).
    assert.match(user, /\nanswer 42\n/, user);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(user, /\u001b|\u0007|633;/, 'no escape sequence or shell integration marker reached the model');

    // A terminal no shell runs in (an extension's pseudoterminal) has no shell integration.
    const writes = new vscode.EventEmitter<string>();
    const plain = vscode.window.createTerminal({ name: 'mentions plain', pty: { onDidWrite: writes.event, open: () => writes.fire('plain\r\n'), close: () => writes.dispose() } });
    terminals.push(plain);
    plain.show(false);
    await until(() => vscode.window.activeTerminal === plain, 'the plain terminal in front');
    await sprout.handle({ type: 'send', text: 'and now? #terminalLastCommand' });
    assert.match(lastUser(), /\nAttached: #terminalLastCommand\n```\nNo terminal command attached: the terminal "mentions plain" has no shell integration \(.*terminal\.integrated\.shellIntegration\.enabled\)\.\n```$/);
  });
});

// `#symbol:` with VS Code's built-in TypeScript server (the one code-server ships), and the `#` menu's
// completion of it (the webview asks the host with `completeMention`). That extension labels functions
// and methods `name()` (getLabel in
// https://github.com/microsoft/vscode/blob/main/extensions/typescript-language-features/src/languageFeatures/workspaceSymbols.ts),
// so a search compared with the bare name never matched: what a first version of this test waited on
// for minutes. It searches the projects of files open in the editor, so the file is opened in a tab.
describe('# mentions: a symbol (real TypeScript server)', function () {
  this.timeout(150_000);
  const project = join(workspaceFolder, 'mentions-ts');
  const shapes = vscode.Uri.file(join(project, 'src', 'shapes.ts'));

  before(async () => {
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'commonjs', noEmit: true }, include: ['src'] }));
    writeFileSync(join(project, 'src', 'volumes.ts'), 'export function volumeOfCube(side: number): number {\n  return side ** 3;\n}\n');
    writeFileSync(shapes.fsPath, 'export function areaOfCircle(radius: number): number {\n  return Math.PI * radius * radius;\n}\n\nexport class Square {\n  constructor(readonly side: number) {}\n}\n');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    rmSync(project, { recursive: true, force: true });
  });

  const { lastUser } = fakeModelForSuite({ models: ['fake-model'], responses: Array.from({ length: 4 }, () => fakeReply.text('ok')) }, { newChat: true });

  it('#symbol: attaches the symbol the TypeScript server finds, with its code; the # menu completes it; an unknown name says so', async () => {
    const sprout = await api();
    await vscode.window.showTextDocument(shapes, { preview: false });
    // Asked at once: a name in a file of the project that is not open is found (while the project loads only the
    // syntax server answers, which knows the open files alone: the ask after the servers are ready does).
    const closed = await searchWorkspaceSymbols('volumeOfCube', { boundMs: 60 * 60_000, enough: (found) => found.some((s) => symbolName(s) === 'volumeOfCube') });
    assert.deepEqual(closed.symbols.filter((s) => symbolName(s) === 'volumeOfCube').map((s) => vscode.workspace.asRelativePath(s.location.uri, false)), ['mentions-ts/src/volumes.ts']);
    // The TypeScript server has the file once it outlines it (its answer to document symbols).
    let outlined = false;
    await until(() => {
      void vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', shapes).then((found) => (outlined = (found ?? []).length > 0));
      return outlined || undefined;
    }, 'the TypeScript server to outline shapes.ts', 120_000);

    const posted: HostMessage[] = [];
    const port = sprout.views.attach({ post: (message) => void posted.push(message), visible: () => false });
    try {
      await sprout.handle({ type: 'completeMention', kind: 'symbol', query: 'areaOfCi' });
    } finally {
      port.dispose();
    }
    const items = posted.flatMap((m) => (m.type === 'mentionItems' && m.kind === 'symbol' ? m.items : []));
    assert.ok(items.some((i) => i.insert === '#symbol:areaOfCircle' && i.description === 'Function in mentions-ts/src/shapes.ts'), JSON.stringify(items));

    await sprout.handle({ type: 'send', text: 'explain #symbol:areaOfCircle, #symbol:Square and #symbol:noSuchSymbolAnywhere' });
    const user = lastUser();
    assert.match(user, /\nAttached: #symbol:areaOfCircle\n```\nFunction areaOfCircle at mentions-ts\/src\/shapes\.ts:1-3:\nexport function areaOfCircle\(radius: number\): number \{\n {2}return Math\.PI \* radius \* radius;\n\}\n```\n/, user);
    assert.match(user, /\nAttached: #symbol:Square\n```\nClass Square at mentions-ts\/src\/shapes\.ts:5-7:\nexport class Square \{\n {2}constructor\(readonly side: number\) \{\}\n\}\n```\n/, user);
    assert.match(user, /\nAttached: #symbol:noSuchSymbolAnywhere\n```\n\(not attached: no workspace symbol is named noSuchSymbolAnywhere; [^\n]+\)\n```$/, user);

    // An unknown name is answered once the servers have, not at the bound: with a bound (a hang guard
    // only) far beyond this test's timeout, the search still ends, with the servers' answer.
    const unknown = await searchWorkspaceSymbols('neverDeclaredAnywhere', { boundMs: 60 * 60_000, enough: (found) => found.some((s) => symbolName(s) === 'neverDeclaredAnywhere') });
    assert.equal(unknown.unanswered, false);
    assert.ok(!unknown.symbols.some((s) => symbolName(s) === 'neverDeclaredAnywhere'), JSON.stringify(unknown.symbols.map(symbolName)));
  });
});
