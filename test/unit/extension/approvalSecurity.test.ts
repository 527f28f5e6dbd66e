// The approval seam against a repository that wants its tool calls approved: the pure decision rule,
// the "always allow" store (workspace state, never a settings file), protected writes that ask every
// time (allow-once only) and carry their approval to the server in _meta, and the target computed on
// the real path.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolHost, ToolHostEvent } from '../../../src/agent/ports';
import type { ToolInfo } from '../../../src/agent/messages';
import { allowedAnswer, decideApproval } from '../../../src/extension/approvals/approvalRules';
import { createApprovalPolicy } from '../../../src/extension/approvals/approvalPolicy';
import { ApprovalToolHost, type ApprovalAnswer, type ApprovalRequest } from '../../../src/extension/approvals/approvalToolHost';
import { protectedTargetFinder } from '../../../src/extension/approvals/protectedTargets';
import { WorkspaceApprovals, type MementoLike } from '../../../src/extension/approvals/workspaceApprovals';
import type { CommandRule } from '../../../src/agent/commandRules';
import { sessionMeta } from '../../../src/agent/sessionMeta';
import type { ConfigError } from '../../../src/agent/settings';
import { readCommandRules } from '../../../src/extension/approvals/commandRuleSettings';

class InMemoryMemento implements MementoLike {
  readonly values = new Map<string, unknown>();
  get<T>(key: string, fallback?: T): T | undefined {
    return (this.values.has(key) ? this.values.get(key) : fallback) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    if (value === undefined) this.values.delete(key);
    else this.values.set(key, value);
  }
}

const tool = (server: string, bareName: string, readOnlyHint = false): ToolInfo => ({
  server,
  bareName,
  qualifiedName: `${server}__${bareName}`,
  description: '',
  inputSchema: {},
  annotations: { readOnlyHint },
  isHook: false,
});

class RecordingToolHost implements ToolHost {
  readonly calls: { name: string; meta?: Record<string, unknown> }[] = [];
  serverNames() { return ['workspace']; }
  async listTools() { return [tool('workspace', 'write_file'), tool('workspace', 'read_file', true), tool('workspace', 'run_command')]; }
  async callTool(server: string, bare: string, _args: Record<string, unknown>, options: { meta?: Record<string, unknown> }) {
    this.calls.push({ name: `${server}__${bare}`, meta: options.meta });
    return { isError: false, text: 'ok' };
  }
  async killServer() {}
  subscribe(_l: (e: ToolHostEvent) => void) { return () => {}; }
}

describe('decideApproval', () => {
  const base = { isHook: false, readOnly: false, preApproved: false, allowedInChat: false };
  const target = { path: '.vscode/settings.json', pattern: '.vscode/**' };

  it('runs hooks, read-only tools and what the user pre-approved; asks the rest with every scope', () => {
    assert.deepEqual(decideApproval({ ...base, isHook: true }), { kind: 'run' });
    assert.deepEqual(decideApproval({ ...base, readOnly: true }), { kind: 'run' });
    assert.deepEqual(decideApproval({ ...base, preApproved: true }), { kind: 'run' });
    assert.deepEqual(decideApproval({ ...base, allowedInChat: true }), { kind: 'run' });
    assert.deepEqual(decideApproval(base), { kind: 'ask', scopes: ['once', 'chat', 'workspace'] });
  });

  it('asks about a protected write even when pre-approved or allowed for the chat, once only, with a warning', () => {
    for (const facts of [base, { ...base, preApproved: true }, { ...base, allowedInChat: true }, { ...base, readOnly: true }]) {
      const decision = decideApproval({ ...facts, protectedTarget: target });
      assert.equal(decision.kind, 'ask');
      assert.deepEqual(decision.kind === 'ask' && decision.scopes, ['once']);
      assert.match(decision.kind === 'ask' ? (decision.warning ?? '') : '', /Protected file: \.vscode\/settings\.json \(matches \.vscode\/\*\*\)/);
    }
  });

  it('narrows an answer that was not offered to allow-once', () => {
    assert.equal(allowedAnswer('workspace', ['once']), 'once');
    assert.equal(allowedAnswer('chat', ['once']), 'once');
    assert.equal(allowedAnswer('deny', ['once']), 'deny');
    assert.equal(allowedAnswer('workspace', ['once', 'chat', 'workspace']), 'workspace');
  });
});

describe('WorkspaceApprovals (always allow, in workspace state)', () => {
  it('adds, lists, forgets, and survives a new instance over the same state (a reload)', async () => {
    const state = new InMemoryMemento();
    const approvals = new WorkspaceApprovals(state);
    assert.equal(approvals.has('workspace__write_file'), false);
    await approvals.add('workspace__write_file');
    await approvals.add('workspace__write_file');
    await approvals.add('todo__todo');
    assert.deepEqual(new WorkspaceApprovals(state).list(), ['workspace__write_file', 'todo__todo']);
    await approvals.remove(['todo__todo']);
    assert.deepEqual(approvals.list(), ['workspace__write_file']);
  });

  it('ignores junk in the stored value', () => {
    const state = new InMemoryMemento();
    state.values.set('sprout.approvals.alwaysAllowed', ['a', 3, null, 'b']);
    assert.deepEqual(new WorkspaceApprovals(state).list(), ['a', 'b']);
    state.values.set('sprout.approvals.alwaysAllowed', 'a');
    assert.deepEqual(new WorkspaceApprovals(state).list(), []);
  });
});

function workspaceRig(answers: ApprovalAnswer[], userAutoApprove: string[] = [], commandRules: readonly CommandRule[] = [], addedRules: string[] = []) {
  const root = mkdtempSync(join(tmpdir(), 'sprout-approve-'));
  mkdirSync(join(root, '.git'));
  writeFileSync(join(root, '.git', 'config'), '');
  symlinkSync(join(root, '.git', 'config'), join(root, 'notes.txt'));
  const remembered = new WorkspaceApprovals(new InMemoryMemento());
  const asked: ApprovalRequest[] = [];
  const inner = new RecordingToolHost();
  const policy = createApprovalPolicy(
    {
      userAutoApprove: () => userAutoApprove,
      remembered,
      commandRules: () => commandRules,
      addUserCommandRule: async (prefix) => void addedRules.push(prefix),
      protectedTarget: protectedTargetFinder(() => ({ workspaceServer: 'workspace', workspaceFolder: root, addedPatterns: ['secrets/**'] })),
    },
    async (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
  );
  const host = new ApprovalToolHost(inner, policy);
  const signal = new AbortController().signal;
  return { root, host, inner, asked, remembered, signal, done: () => rmSync(root, { recursive: true, force: true }) };
}

describe('ApprovalToolHost with protected writes', () => {
  it('asks about a protected write even when the tool is auto-approved, and sends the approval in _meta', async () => {
    const rig = workspaceRig(['once'], ['workspace__write_file']);
    try {
      await rig.host.callTool('workspace', 'write_file', { path: 'src/a.ts', content: '' }, { signal: rig.signal });
      assert.equal(rig.asked.length, 0, 'an ordinary write by an auto-approved tool is not asked about');
      await rig.host.callTool('workspace', 'write_file', { path: '.vscode/settings.json', content: '{}' }, { signal: rig.signal });
      assert.equal(rig.asked.length, 1);
      assert.deepEqual(rig.asked[0]?.scopes, ['once']);
      assert.match(rig.asked[0]?.warning ?? '', /\.vscode\/settings\.json/);
      assert.deepEqual(rig.inner.calls.map((c) => c.meta), [undefined, { 'sprout/protectedWrite': { path: '.vscode/settings.json' } }]);
    } finally {
      rig.done();
    }
  });

  it('sends the approval beside the session _meta the agent gave the call, not instead of it', async () => {
    const rig = workspaceRig(['once']);
    try {
      await rig.host.callTool('workspace', 'write_file', { path: '.vscode/tasks.json', content: '{}' }, { signal: rig.signal, meta: sessionMeta('chat-1') });
      assert.deepEqual(rig.inner.calls[0]?.meta, { 'sprout/session': { sessionId: 'chat-1' }, 'sprout/protectedWrite': { path: '.vscode/tasks.json' } });
    } finally {
      rig.done();
    }
  });

  it('"always allow" chosen for a normal write neither applies to nor can be chosen for a protected one', async () => {
    const rig = workspaceRig(['workspace', 'workspace', 'deny']);
    try {
      await rig.host.callTool('workspace', 'write_file', { path: 'a.txt', content: '' }, { signal: rig.signal });
      assert.deepEqual(rig.remembered.list(), ['workspace__write_file']);
      // The webview offered only "once"; a forged "workspace" answer is narrowed to once and not remembered twice.
      await rig.host.callTool('workspace', 'write_file', { path: '.git/hooks/pre-commit', content: '' }, { signal: rig.signal });
      const denied = await rig.host.callTool('workspace', 'write_file', { path: '.git/config', content: '' }, { signal: rig.signal });
      assert.equal(denied.isError, true);
      assert.equal(rig.asked.length, 3, 'every protected write asked');
      assert.deepEqual(rig.inner.calls.map((c) => c.name), ['workspace__write_file', 'workspace__write_file']);
    } finally {
      rig.done();
    }
  });

  it('names the real target: a symlink into .git is asked about as .git/config; added patterns count', async () => {
    const rig = workspaceRig(['once', 'once']);
    try {
      await rig.host.callTool('workspace', 'edit_file', { path: 'notes.txt', oldString: 'a', newString: 'b' }, { signal: rig.signal });
      assert.match(rig.asked[0]?.warning ?? '', /Protected file: \.git\/config/);
      assert.deepEqual(rig.inner.calls[0]?.meta, { 'sprout/protectedWrite': { path: '.git/config' } });
      await rig.host.callTool('workspace', 'write_file', { path: 'secrets/prod.env', content: '' }, { signal: rig.signal });
      assert.match(rig.asked[1]?.warning ?? '', /secrets\/\*\*/);
    } finally {
      rig.done();
    }
  });

  it('knows only the bundled workspace server: the same tool name elsewhere is an ordinary call', () => {
    const root = mkdtempSync(join(tmpdir(), 'sprout-approve-'));
    try {
      const find = protectedTargetFinder(() => ({ workspaceServer: undefined, workspaceFolder: root, addedPatterns: [] }));
      assert.equal(find('workspace', 'write_file', { path: '.vscode/settings.json' }), undefined);
      const bundled = protectedTargetFinder(() => ({ workspaceServer: 'workspace', workspaceFolder: root, addedPatterns: [] }));
      assert.equal(bundled('other', 'write_file', { path: '.vscode/settings.json' }), undefined);
      assert.equal(bundled('workspace', 'read_file', { path: '.vscode/settings.json' }), undefined);
      assert.equal(bundled('workspace', 'write_file', { path: '../outside/.git/config' }), undefined, 'outside: the server refuses it anyway');
      assert.deepEqual(bundled('workspace', 'write_file', { path: '.vscode/settings.json' }), { path: '.vscode/settings.json', pattern: '.vscode/**' });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('ApprovalToolHost with command rules (sprout.tools.commandRules)', () => {
  // The levels as configReader hands them over (VS Code's inspect()): a workspace's allow is ignored.
  const errors: ConfigError[] = [];
  const rules = readCommandRules(
    { user: [{ allow: 'npm test' }, { deny: 'rm' }], workspace: [{ allow: 'curl' }, { deny: 'npm test -- -u' }], workspaceFolder: [{ deny: '/[/' }] },
    errors,
  );

  it('names the ignored workspace allow and the invalid regex as settings errors; keeps the rest', () => {
    assert.deepEqual(rules.map((rule) => `${rule.kind} ${rule.pattern}`), ['allow npm test', 'deny rm', 'deny npm test -- -u']);
    assert.equal(errors.length, 2);
    assert.match(errors[0]?.message ?? '', /^workspace settings sprout\.tools\.commandRules\[0\] \{"allow":"curl"\}: ignored: a workspace's rules can only deny/);
    assert.match(errors[1]?.message ?? '', /^folder settings sprout\.tools\.commandRules\[0\] \{"deny":"\/\[\/"\}: .*This rule is ignored/);
    assert.ok(errors.every((error) => error.setting === 'sprout.tools.commandRules'));
  });

  it('runs an allowed command without asking, asks about a compound with a part not allowed, refuses a denied one naming the rule', async () => {
    const rig = workspaceRig(['deny', 'deny'], [], rules);
    try {
      assert.equal(await rig.host.authorize('workspace', 'run_command', { command: 'npm test -- -t x' }, rig.signal), undefined);
      assert.equal(rig.asked.length, 0, 'allowed by rule: not asked');
      const compound = await rig.host.authorize('workspace', 'run_command', { command: 'npm test; curl x | sh' }, rig.signal);
      assert.equal(rig.asked.length, 1, 'a part no rule allows: asked');
      assert.equal(compound?.isError, true);
      const denied = await rig.host.authorize('workspace', 'run_command', { command: 'npm test && rm -rf /' }, rig.signal);
      assert.equal(rig.asked.length, 1, 'denied by rule: refused without asking');
      assert.match(denied?.text ?? '', /Refused by the command rule deny "rm" \(user settings sprout\.tools\.commandRules\[1\]\): `rm -rf \/` is denied/);
      const workspaceAllowed = await rig.host.authorize('workspace', 'run_command', { command: 'curl x' }, rig.signal);
      assert.equal(rig.asked.length, 2, "the workspace's allow rule does not allow");
      assert.equal(workspaceAllowed?.isError, true);
      assert.match((await rig.host.authorize('workspace', 'run_command', { command: 'npm test -- -u' }, rig.signal))?.text ?? '', /workspace settings/);
      assert.deepEqual(rig.inner.calls, []);
    } finally {
      rig.done();
    }
  });

  it('rules apply to run_command only', async () => {
    const rig = workspaceRig(['deny'], [], [...rules, ...readCommandRules([{ allow: '/.*/' }], [])]);
    try {
      await rig.host.authorize('workspace', 'write_file', { path: 'a.txt', content: '', command: 'npm test' }, rig.signal);
      assert.equal(rig.asked.length, 1);
    } finally {
      rig.done();
    }
  });
});

describe('"Always allow" a command by rule', () => {
  it('offers the first words of a single command no rule decides; the answer adds that allow rule and runs the call', async () => {
    const added: string[] = [];
    const rig = workspaceRig(['rule', 'deny'], [], readCommandRules([{ deny: 'rm' }], []), added);
    try {
      assert.equal(await rig.host.authorize('workspace', 'run_command', { command: 'npm test -- -t x' }, rig.signal), undefined);
      assert.deepEqual(rig.asked[0]?.scopes, ['once', 'chat', 'workspace', 'rule']);
      assert.equal(rig.asked[0]?.rule, 'npm test');
      assert.deepEqual(added, ['npm test']);
      await rig.host.authorize('workspace', 'run_command', { command: 'npm test && curl x | sh' }, rig.signal);
      assert.deepEqual(rig.asked[1]?.scopes, ['once', 'chat', 'workspace'], 'a compound command: no rule offered');
      assert.equal(rig.asked[1]?.rule, undefined);
    } finally {
      rig.done();
    }
  });
});
