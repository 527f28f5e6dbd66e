/**
 * Attacks by a repository, a model, a server or a hook, collected from public reports about coding
 * agents (issue 32): what they can make Sprout write or do (the attacks on what Sprout prints or stores
 * are in outputAttacks.test.ts). Each case names the report it comes from and checks the rule that stops
 * the whole class in Sprout, not the one string of the report. Cases that need processes or files use
 * real ones (a temporary workspace, symlinks, the CLI's `hooks install`).
 *
 * First contact (before the rules were applied) and the rules each class is held by are in the
 * CHANGELOG's Unreleased "Security" entries.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protectedRule } from '../../../src/servers/common/protectedPaths';
import { writeInWorkspace } from '../../../src/servers/common/confinedFs';
import { displayPath, resolveInWorkspace } from '../../../src/servers/common/safePath';
import { writeGuard } from '../../../src/servers/workspace/writeGuard';
import { matcherAllows } from '../../../src/agentHooks/hookSources';
import { agentFormat } from '../../../src/agentHooks/agentFormats';
import { runHooksInstall } from '../../../src/cli/bridge/hooksInstall';
import type { CliIo } from '../../../src/cli/cliIo';
import type { AgentId } from '../../../src/agentHooks/agentFormat';

// ---------------------------------------------------------------------------------------------------
// 1. A repository (or a model steered by one) writes another agent's configuration: every such write
//    needs the protected-path question, whichever agent reads the file.
// ---------------------------------------------------------------------------------------------------
const PROTECTED: { path: string; source: string }[] = [
  { path: '.claude/settings.json', source: 'https://github.com/anthropics/claude-code/issues/42593 (CVE-2025-59536: repo hooks ran before trust)' },
  { path: '.claude/settings.local.json', source: 'https://github.com/anthropics/claude-code/issues/62519' },
  { path: '.gemini/settings.json', source: 'https://blog.c0xl.ch/p/gemini-cli-hook-cve (a PR\'s .gemini/settings.json hook ran in CI)' },
  { path: '.gemini/hooks/before.sh', source: 'https://blog.c0xl.ch/p/gemini-cli-hook-cve (hook scripts under .gemini/)' },
  { path: '.codex/hooks.json', source: 'https://codex.danielvaughan.com/2026/04/13/mcp-security-codex-cli-cve-config-hardening-trust-boundaries' },
  { path: '.codex/config.toml', source: 'https://codex.danielvaughan.com/2026/03/27/security-hardening-codex-cli (CVE-2025-61260: project .codex/config.toml MCP servers)' },
  { path: '.github/hooks/guard.json', source: 'https://code.visualstudio.com/docs/copilot/security (Copilot reads every .github/hooks/*.json)' },
  { path: '.github/hooks/sprout-agent.json', source: 'https://code.visualstudio.com/docs/copilot/security' },
  { path: '.kiro/agents/sprout.json', source: 'https://airq.adversa.ai/agent/cursor/ (agent files a repository ships run hooks)' },
  { path: '.kiro/agents/reviewer.json', source: 'https://airq.adversa.ai/agent/cursor/' },
  { path: '.cursor/mcp.json', source: 'https://www.cncso.com/en/cursor-ide-secure-development-guide.html (CVE-2025-54135 CurXecute)' },
  { path: '.cursor/hooks.json', source: 'https://howtoharden.com/guides/cursor/ (MCPoison, CVE-2025-54136)' },
  { path: '.vscode/settings.json', source: 'https://evlbot.xyz/llm06-lesson/llm06-slide-21.html (CVE-2025-53773: chat.tools.autoApprove)' },
  { path: '.GEMINI/Settings.json', source: 'https://howtoharden.com/guides/cursor/ (case-sensitivity bypass of protected files)' },
  { path: '.mcp.json', source: 'https://github.com/slopus/happy/issues/1688 (a repository\'s .mcp.json starts a stdio server in Claude Code)' },
  { path: 'apps/web/.mcp.json', source: 'https://github.com/gadievron/raptor/pull/185 (.mcp.json fields that execute code on load)' },
  { path: 'packages/app/.codex/hooks.json', source: 'https://github.com/zarazhangrui/lark-coding-agent-bridge/issues/259 (a nested project folder is a project too)' },
];

describe('attack corpus: a write to any agent\'s configuration asks first', () => {
  const rule = protectedRule();
  for (const c of PROTECTED) {
    it(`${c.path} is protected (${c.source})`, () => {
      assert.notEqual(rule.match(c.path), undefined, `${c.path} must get the protected-path question`);
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// 2. No write follows a link out of the workspace: `hooks install` on a repository whose agent config
//    (or its folder) is a symlink into the user's home.
// ---------------------------------------------------------------------------------------------------
function tempDir(prefix: string): string {
  return realpathSync(mkdtempSync(join(tmpdir(), prefix)));
}

function fakeIo(cwd: string): CliIo & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    argv: [],
    env: {},
    cwd,
    stdin: { isTTY: false, [Symbol.asyncIterator]: async function* () {} } as unknown as CliIo['stdin'],
    stdout: { write: (s: string) => out.push(s) },
    stderr: { write: (s: string) => err.push(s) },
    version: 'test',
    distDir: cwd,
    interrupt: new AbortController().signal,
    out,
    err,
  };
}

async function installInto(workspace: string, agent: AgentId, event: string): Promise<{ code: number | undefined; error: Error | undefined; io: ReturnType<typeof fakeIo> }> {
  const io = fakeIo(workspace);
  try {
    const code = await runHooksInstall(['--agent', agent, '--events', event, '--command', 'true', '--yes', '--cwd', workspace], io, false);
    return { code, error: undefined, io };
  } catch (error) {
    return { code: undefined, error: error as Error, io };
  }
}

describe('attack corpus: hooks install never writes through a link out of the workspace', () => {
  // https://github.com/Synaptic-Labs-AI/PACT-Plugin/issues/1247 (a repo ships `.claude` as a symlink to ~/.claude)
  // https://github.com/GeneGulanesJr/LaPis/pull/237 (an installer wrote through a symlinked .claude file into ~/.bashrc)
  const cases: { name: string; agent: AgentId; event: string; link: (ws: string, home: string) => string; source: string }[] = [
    {
      name: 'a symlinked .claude/settings.json',
      agent: 'claude',
      event: 'Stop',
      source: 'https://github.com/GeneGulanesJr/LaPis/pull/237',
      link: (ws, home) => {
        mkdirSync(join(ws, '.claude'));
        writeFileSync(join(home, 'settings.json'), '{"hooks":{}}\n');
        symlinkSync(join(home, 'settings.json'), join(ws, '.claude', 'settings.json'));
        return join(home, 'settings.json');
      },
    },
    {
      name: 'a symlinked .claude folder',
      agent: 'claude',
      event: 'Stop',
      source: 'https://github.com/Synaptic-Labs-AI/PACT-Plugin/issues/1247',
      link: (ws, home) => {
        writeFileSync(join(home, 'settings.json'), '{"hooks":{}}\n');
        symlinkSync(home, join(ws, '.claude'));
        return join(home, 'settings.json');
      },
    },
    {
      name: 'a dangling symlink at .gemini/settings.json',
      agent: 'gemini',
      event: 'AfterAgent',
      source: 'https://github.com/nextlevelbuilder/goclaw/issues/1201 (a dangling symlink alias)',
      link: (ws, home) => {
        mkdirSync(join(ws, '.gemini'));
        symlinkSync(join(home, 'settings.json'), join(ws, '.gemini', 'settings.json'));
        return join(home, 'settings.json');
      },
    },
  ];
  for (const c of cases) {
    it(`refuses ${c.name}, names it, and leaves the home file as it was (${c.source})`, async () => {
      const ws = tempDir('sprout-corpus-ws-');
      const home = tempDir('sprout-corpus-home-');
      try {
        const target = c.link(ws, home);
        const before = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
        const result = await installInto(ws, c.agent, c.event);
        const after = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
        assert.equal(after, before, 'the file outside the workspace is unchanged');
        assert.ok(!result.io.out.join('').includes('Wrote '), `claims no write: ${result.io.out.join('')}`);
        assert.ok(result.error !== undefined, 'the install is refused');
        assert.match(result.error.message, /link|outside the workspace/);
      } finally {
        rmSync(ws, { recursive: true, force: true });
        rmSync(home, { recursive: true, force: true });
      }
    });
  }
  it('still writes an ordinary workspace file, and a link that stays inside the workspace at its real target', async () => {
    const ws = tempDir('sprout-corpus-ws-');
    try {
      const fresh = await installInto(ws, 'claude', 'Stop');
      assert.equal(fresh.error, undefined, String(fresh.error));
      assert.match(readFileSync(join(ws, '.claude', 'settings.json'), 'utf8'), /"Stop"/);
      assert.match(fresh.io.out.join(''), /Wrote .*\.claude\/settings\.json/);
      mkdirSync(join(ws, 'shared'));
      writeFileSync(join(ws, 'shared', 'gemini.json'), '{}\n');
      mkdirSync(join(ws, '.gemini'));
      symlinkSync(join(ws, 'shared', 'gemini.json'), join(ws, '.gemini', 'settings.json'));
      const linked = await installInto(ws, 'gemini', 'AfterAgent');
      assert.equal(linked.error, undefined, String(linked.error));
      assert.match(readFileSync(join(ws, 'shared', 'gemini.json'), 'utf8'), /"AfterAgent"/);
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});

describe('attack corpus: the model\'s writes never follow a link out of the workspace', () => {
  /** What the workspace server does with a write the model asked for: resolve, guard, write. */
  function modelWrite(ws: string, requested: string, content: string): void {
    const real = resolveInWorkspace(ws, requested);
    writeGuard({ rootReal: ws, rule: protectedRule(), allowAll: false })(real, undefined);
    writeInWorkspace(ws, real, content);
  }
  it('through a folder that links out (https://github.com/Synaptic-Labs-AI/PACT-Plugin/issues/1247)', () => {
    const ws = tempDir('sprout-corpus-ws-');
    const home = tempDir('sprout-corpus-home-');
    try {
      symlinkSync(home, join(ws, 'notes'));
      assert.throws(() => modelWrite(ws, 'notes/CLAUDE.md', 'x'), /outside the workspace/);
      assert.equal(existsSync(join(home, 'CLAUDE.md')), false);
    } finally {
      rmSync(ws, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
  it('to a dangling link whose target is outside (https://github.com/nextlevelbuilder/goclaw/issues/1201)', () => {
    const ws = tempDir('sprout-corpus-ws-');
    const home = tempDir('sprout-corpus-home-');
    try {
      symlinkSync(join(home, 'bashrc'), join(ws, 'notes.md'));
      try {
        modelWrite(ws, 'notes.md', 'echo pwned');
      } catch (error) {
        assert.match(String(error), /outside|link|changed/);
      }
      assert.equal(existsSync(join(home, 'bashrc')), false, 'nothing was created outside');
    } finally {
      rmSync(ws, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  });
  it('a link inside the workspace to a protected file is that file (https://github.com/assafkip/kipi-system/pull/64: ln -sf .claude/settings.json)', () => {
    const ws = tempDir('sprout-corpus-ws-');
    try {
      mkdirSync(join(ws, '.gemini'));
      writeFileSync(join(ws, '.gemini', 'settings.json'), '{}\n');
      symlinkSync(join(ws, '.gemini', 'settings.json'), join(ws, 'readme-notes.json'));
      const real = resolveInWorkspace(ws, 'readme-notes.json');
      assert.equal(displayPath(ws, real), '.gemini/settings.json');
      assert.throws(() => modelWrite(ws, 'readme-notes.json', '{"hooks":{}}'), /protected path/);
      assert.equal(readFileSync(join(ws, '.gemini', 'settings.json'), 'utf8'), '{}\n');
    } finally {
      rmSync(ws, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------------------------------------------
// 3. Every pattern from a file is matched in linear time: a hook matcher cannot spin the CLI.
// ---------------------------------------------------------------------------------------------------
describe('attack corpus: hook matchers run in linear time', () => {
  const long = `${'a'.repeat(5000)}!`;
  const cases: { matcher: string; subject: string; expected: boolean; source: string }[] = [
    { matcher: '(a+)+b', subject: long, expected: false, source: 'https://github.com/KorenKrita/nokori/issues/25 (gate_matcher "(a+)+b")' },
    { matcher: '(a|aa)+$', subject: long, expected: false, source: 'https://github.com/DietrichGebert/ponytail/pull/686 ((a|aa)+)' },
    { matcher: '^(a+)+$', subject: long, expected: false, source: 'https://github.com/akasecurity/ai-tc/pull/24 (^(a+)+$ on a hook path)' },
    { matcher: '(.*a){20}', subject: long.replace(/a/g, 'b'), expected: false, source: 'https://github.com/madeye/SwitchyDelta/issues/36 (.*a.*a...: polynomial)' },
    { matcher: 'Edit|Write', subject: 'Write', expected: true, source: 'https://code.claude.com/docs/en/hooks (matchers are regular expressions)' },
    { matcher: 'mcp__.*__write.*', subject: 'mcp__fs__write_file', expected: true, source: 'https://code.claude.com/docs/en/hooks' },
  ];
  for (const c of cases) {
    it(`${c.matcher} answers ${c.expected} at once (${c.source})`, () => {
      assert.equal(matcherAllows(c.matcher, c.subject), c.expected);
    });
  }
});

// ---------------------------------------------------------------------------------------------------
// 4. Each agent format's answer is honoured as that agent defines it: `continue: false` stops.
//    Claude Code's hooks reference: "continue: false" stops Claude after the hooks run and takes
//    precedence over any "decision"; Codex's output schemas carry the same field.
// ---------------------------------------------------------------------------------------------------
describe('attack corpus: a hook\'s "continue": false means stop', () => {
  const ok = (stdout: string) => ({ exitCode: 0, stdout, stderr: '' });
  const source = 'https://www.developersdigest.tech/guides/stop-hook (Claude Code hooks: continue false takes precedence); https://docs.rs/crate/typeduck-codex-utils-absolute-path/0.9.0/source/schema/generated/stop.command.output.schema.json';
  const stopCases: { agent: AgentId; event: string }[] = [
    { agent: 'claude', event: 'Stop' },
    { agent: 'codex', event: 'Stop' },
  ];
  for (const c of stopCases) {
    it(`${c.agent} ${c.event}: continue false with decision block lets the agent stop (${source})`, () => {
      const read = agentFormat(c.agent).read(c.event, ok('{"continue": false, "stopReason": "done for today", "decision": "block", "reason": "run the tests"}'));
      assert.equal(read.text, '', 'no objection: the agent stops');
    });
  }
  for (const agent of ['claude', 'codex'] as const) {
    it(`${agent} PreToolUse: continue false does not let the call run (${source})`, () => {
      const read = agentFormat(agent).read('PreToolUse', ok('{"continue": false, "stopReason": "policy says stop"}'));
      assert.match(read.text, /policy says stop/);
    });
  }
  const gemini = 'https://geminicli.com/docs/hooks/reference.md (common output fields: continue, stopReason)';
  it(`gemini AfterAgent: continue false with decision deny lets the agent stop (${gemini})`, () => {
    const read = agentFormat('gemini').read('AfterAgent', ok('{"continue": false, "stopReason": "enough", "decision": "deny", "reason": "retry"}'));
    assert.equal(read.text, '');
  });
  it(`gemini BeforeTool: continue false does not let the call run (${gemini})`, () => {
    const read = agentFormat('gemini').read('BeforeTool', ok('{"continue": false, "stopReason": "halt now"}'));
    assert.match(read.text, /halt now/);
  });
  it(`claude UserPromptSubmit: continue false is not dropped silently (${source})`, () => {
    const read = agentFormat('claude').read('UserPromptSubmit', ok('{"continue": false, "stopReason": "out of hours"}'));
    assert.ok(read.problem !== undefined && /continue/.test(read.problem) && /out of hours/.test(read.problem), JSON.stringify(read));
    assert.equal(read.text, '');
  });
  it(`claude PostToolUse: continue false is not dropped silently (${source})`, () => {
    const read = agentFormat('claude').read('PostToolUse', ok('{"continue": false, "stopReason": "secret in output", "hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "x"}}'));
    assert.ok(read.problem !== undefined && /secret in output/.test(read.problem), JSON.stringify(read));
  });
});
