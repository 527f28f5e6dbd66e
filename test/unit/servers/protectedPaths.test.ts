import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  approvedProtectedPath,
  DEFAULT_PROTECTED_PATTERNS,
  ProtectedPatternError,
  protectedRule,
  protectedWriteMeta,
} from '../../../src/servers/common/protectedPaths';

const rule = protectedRule();
const hit = (path: string, r = rule): string | undefined => r.match(path)?.pattern;

describe('protected-path rule', () => {
  it('protects every default location the issue names', () => {
    assert.equal(hit('.vscode/settings.json'), '.vscode/**');
    assert.equal(hit('.vscode/mcp.json'), '.vscode/**');
    assert.equal(hit('.vscode/tasks.json'), '.vscode/**');
    assert.equal(hit('.git/config'), '.git/**');
    assert.equal(hit('.git/hooks/pre-commit'), '.git/**');
    assert.equal(hit('.git/info/attributes'), '.git/**');
    assert.equal(hit('.github/workflows/ci.yml'), '.github/workflows/**');
    assert.equal(hit('.devcontainer/devcontainer.json'), '.devcontainer/**');
    assert.equal(hit('project.code-workspace'), '*.code-workspace');
    assert.equal(hit('.claude/settings.json'), '.claude/**');
    assert.equal(hit('.cursor/rules'), '.cursor/**');
    assert.equal(hit('.sprout/session.jsonl'), '.sprout/**');
  });

  it('protects the instruction files that shape what the agent is told, at any depth', () => {
    assert.equal(hit('AGENTS.md'), 'AGENTS.md');
    assert.equal(hit('packages/app/AGENTS.md'), 'AGENTS.md');
    assert.equal(hit('pkg/claude.md'), 'CLAUDE.md');
    assert.equal(hit('GEMINI.md'), 'GEMINI.md');
    assert.equal(hit('.github/copilot-instructions.md'), '.github/copilot-instructions.md');
    assert.equal(hit('.github/instructions/ts.instructions.md'), '.github/instructions/**');
    assert.equal(hit('.github/prompts/fix.prompt.md'), '.github/prompts/**');
    assert.equal(hit('.claude/commands/fix.md'), '.claude/**');
    assert.equal(hit('.clinerules'), '.clinerules');
    assert.equal(hit('.clinerules/01-style.md'), '.clinerules/**');
    assert.equal(hit('.cursorrules'), '.cursorrules');
    assert.equal(hit('docs/AGENTS.md.bak'), undefined);
  });

  it('protects the Agent Skills folders: a SKILL.md or a script beside it tells the model what to do', () => {
    assert.equal(hit('.github/skills/release/SKILL.md'), '.github/skills/**');
    assert.equal(hit('.agents/skills/release/scripts/run.sh'), '.agents/skills/**');
    assert.equal(hit('.claude/skills/release/SKILL.md'), '.claude/**');
    assert.equal(hit('docs/skills/SKILL.md'), undefined);
  });

  it('protects custom agent files: a write to one rewrites an agent\'s instructions and the tools it may use', () => {
    assert.equal(hit('.github/agents/reviewer.agent.md'), '.github/agents/**');
    assert.equal(hit('.github/chatmodes/explain.chatmode.md'), '.github/chatmodes/**');
    assert.equal(hit('.claude/agents/reviewer.md'), '.claude/**');
    assert.equal(hit('docs/agents/reviewer.agent.md'), undefined);
  });

  it('leaves ordinary files alone, including look-alikes', () => {
    for (const path of ['src/a.ts', 'README.md', '.github/CODEOWNERS', '.github/dependabot.yml', 'vscode/settings.json', '.gitignore', '.gitattributes', 'git/config', 'my.vscode.txt', 'x.code-workspace.bak']) {
      assert.equal(hit(path), undefined, path);
    }
  });

  it('covers the directory entry itself (a `.git` file can point git elsewhere)', () => {
    assert.equal(hit('.git'), '.git/**');
    assert.equal(hit('.vscode'), '.vscode/**');
    assert.equal(hit('pkg/.git'), '.git/**');
  });

  it('matches at any depth: a nested repository or folder settings are as dangerous', () => {
    assert.equal(hit('vendor/lib/.git/config'), '.git/**');
    assert.equal(hit('packages/app/.vscode/settings.json'), '.vscode/**');
    assert.equal(hit('sub/.github/workflows/x.yml'), '.github/workflows/**');
    assert.equal(hit('deep/down/team.code-workspace'), '*.code-workspace');
  });

  it('ignores case, trailing dots and spaces, and NTFS stream suffixes', () => {
    assert.equal(hit('.VSCode/Settings.json'), '.vscode/**');
    assert.equal(hit('.GIT/config'), '.git/**');
    assert.equal(hit('.git./config'), '.git/**');
    assert.equal(hit('.git /hooks/pre-commit'), '.git/**');
    assert.equal(hit('.git::$INDEX_ALLOCATION/config'), '.git/**');
    assert.equal(hit('Team.Code-Workspace'), '*.code-workspace');
  });

  it('accepts backslashes and ./ segments in the path', () => {
    assert.equal(hit('.vscode\\settings.json'), '.vscode/**');
    assert.equal(hit('./.git/config'), '.git/**');
    assert.equal(hit(''), undefined);
    assert.equal(hit('.'), undefined);
  });

  it('adds patterns: unanchored ones at any depth, a leading "/" anchors at the root', () => {
    const r = protectedRule(['secrets/**', '/deploy.sh', '*.pem']);
    assert.deepEqual(r.patterns, [...DEFAULT_PROTECTED_PATTERNS, 'secrets/**', '/deploy.sh', '*.pem']);
    assert.equal(hit('secrets/prod.env', r), 'secrets/**');
    assert.equal(hit('app/secrets/prod.env', r), 'secrets/**');
    assert.equal(hit('deploy.sh', r), '/deploy.sh');
    assert.equal(hit('tools/deploy.sh', r), undefined);
    assert.equal(hit('certs/server.pem', r), '*.pem');
    assert.equal(hit('.git/config', r), '.git/**', 'the defaults stay in force');
  });

  it('never lets an added pattern remove protection', () => {
    assert.throws(() => protectedRule(['!.vscode/**']), ProtectedPatternError);
    assert.throws(() => protectedRule(['!.vscode/**']), /can only add protection/);
    assert.throws(() => protectedRule(['../outside/**']), /contains "\.\."/);
    assert.throws(() => protectedRule(['  ']), /is empty/);
    assert.throws(() => protectedRule(['{a,b']), /not a valid glob/);
    assert.deepEqual(protectedRule(['.git/**']).patterns, DEFAULT_PROTECTED_PATTERNS, 'duplicates collapse');
  });

  it('reads the approval a host puts in _meta, and nothing else', () => {
    assert.equal(approvedProtectedPath(protectedWriteMeta('.vscode/settings.json')), '.vscode/settings.json');
    assert.equal(approvedProtectedPath(undefined), undefined);
    assert.equal(approvedProtectedPath({ 'sprout/protectedWrite': '.vscode/settings.json' }), undefined);
    assert.equal(approvedProtectedPath({ 'sprout/protectedWrite': { path: 7 } }), undefined);
    assert.equal(approvedProtectedPath({ other: { path: '.git/config' } }), undefined);
  });
});
