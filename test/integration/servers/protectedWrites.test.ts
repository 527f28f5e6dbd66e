// The workspace server's own guard on protected paths (defence in depth behind the host's approval):
// through the real child process, a write whose real target is protected is refused unless the request
// `_meta` approves that exact path, or the server was started with --allow-protected-writes.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protectedWriteMeta } from '../../../src/servers/common/protectedPaths';
import { startServer, type ServerProcess } from './serverProcess';

describe('workspace server: protected paths', () => {
  let base: string;
  let root: string;
  let server: ServerProcess;
  let permissive: ServerProcess;

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-protected-'));
    root = join(base, 'root');
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true });
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, '.git', 'config'), '[core]\n\tbare = false\n');
    symlinkSync(join(root, '.git', 'config'), join(root, 'docs', 'innocent.txt'));
    symlinkSync(join(root, '.git', 'hooks'), join(root, 'hooks-dir'));
    server = await startServer('workspace', ['--root', root, '--state-dir', join(base, 'state'), '--protected-paths', JSON.stringify(['secrets/**'])]);
    permissive = await startServer('workspace', ['--root', root, '--state-dir', join(base, 'state2'), '--allow-protected-writes']);
  });

  after(async () => {
    await server?.close();
    await permissive?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('refuses writes and edits of protected files without an approval, naming the pattern', async () => {
    const attempts: [string, Record<string, unknown>, string, RegExp][] = [
      ['write_file', { path: '.vscode/settings.json', content: '{"sprout.tools.autoApprove":["workspace__run_command"]}' }, '.vscode/settings.json', /"\.vscode\/\*\*"/],
      ['write_file', { path: '.vscode/mcp.json', content: '{}' }, '.vscode/mcp.json', /\.vscode/],
      ['write_file', { path: '.vscode/tasks.json', content: '{}' }, '.vscode/tasks.json', /\.vscode/],
      ['write_file', { path: '.git/hooks/pre-commit', content: '#!/bin/sh\necho pwned\n' }, '.git/hooks/pre-commit', /"\.git\/\*\*"/],
      ['edit_file', { path: '.git/config', oldString: 'bare = false', newString: 'fsmonitor = "touch /tmp/pwned"' }, '.git/config', /\.git/],
      ['write_file', { path: 'team.code-workspace', content: '{}' }, 'team.code-workspace', /code-workspace/],
      ['write_file', { path: 'vendor/lib/.git/config', content: '[core]\n' }, 'vendor/lib/.git/config', /\.git/],
      ['write_file', { path: 'secrets/prod.env', content: 'X=1' }, 'secrets/prod.env', /"secrets\/\*\*"/],
    ];
    for (const [tool, args, path, pattern] of attempts) {
      const result = await server.call(tool, args);
      assert.equal(result.isError, true, `${tool} ${path}: ${result.text}`);
      assert.match(result.text, new RegExp(`refused: ${path.replace(/[.*]/g, '\\$&')} is a protected path`));
      assert.match(result.text, pattern);
      assert.match(result.text, /--allow-protected-writes/);
    }
    assert.ok(!existsSync(join(root, '.vscode')), 'nothing was created under .vscode');
    assert.ok(!existsSync(join(root, '.git', 'hooks', 'pre-commit')));
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
  });

  it('decides on the real path: a symlink into .git is protected too', async () => {
    const viaFile = await server.call('write_file', { path: 'docs/innocent.txt', content: '[core]\n\tfsmonitor = evil\n' });
    assert.equal(viaFile.isError, true);
    assert.match(viaFile.text, /refused: \.git\/config is a protected path/);
    const viaDir = await server.call('write_file', { path: 'hooks-dir/post-checkout', content: '#!/bin/sh\n' });
    assert.equal(viaDir.isError, true);
    assert.match(viaDir.text, /refused: \.git\/hooks\/post-checkout is a protected path/);
    assert.equal(readFileSync(join(root, '.git', 'config'), 'utf8'), '[core]\n\tbare = false\n');
  });

  it('writes a protected file when _meta approves exactly that real path, and only that one', async () => {
    const wrong = await server.call('write_file', { path: '.vscode/settings.json', content: '{}' }, protectedWriteMeta('.vscode/tasks.json'));
    assert.equal(wrong.isError, true);
    assert.match(wrong.text, /refused/);
    const viaLink = await server.call('write_file', { path: 'docs/innocent.txt', content: 'x' }, protectedWriteMeta('docs/innocent.txt'));
    assert.equal(viaLink.isError, true, 'the approval names the path the user saw, which must be the real one');
    const approved = await server.call('write_file', { path: '.vscode/settings.json', content: '{"editor.tabSize": 2}' }, protectedWriteMeta('.vscode/settings.json'));
    assert.equal(approved.isError, false, approved.text);
    assert.equal(readFileSync(join(root, '.vscode', 'settings.json'), 'utf8'), '{"editor.tabSize": 2}');
    const edited = await server.call('edit_file', { path: '.git/config', oldString: 'bare = false', newString: 'bare = true' }, protectedWriteMeta('.git/config'));
    assert.equal(edited.isError, false, edited.text);
    assert.match(readFileSync(join(root, '.git', 'config'), 'utf8'), /bare = true/);
  });

  it('writes ordinary files as before, keeping an existing file mode', async () => {
    writeFileSync(join(root, 'run.sh'), 'echo one\n', { mode: 0o755 });
    const result = await server.call('edit_file', { path: 'run.sh', oldString: 'one', newString: 'two' });
    assert.equal(result.isError, false, result.text);
    assert.equal(readFileSync(join(root, 'run.sh'), 'utf8'), 'echo two\n');
    assert.equal(statSync(join(root, 'run.sh')).mode & 0o777, 0o755);
    const created = await server.call('write_file', { path: 'src/new/file.ts', content: 'export {};\n' });
    assert.equal(created.isError, false, created.text);
    assert.match(created.text, /created src\/new\/file\.ts/);
  });

  it('with --allow-protected-writes (the CLI flag passes it) protected files are written without _meta', async () => {
    const result = await permissive.call('write_file', { path: '.github/workflows/ci.yml', content: 'on: push\n' });
    assert.equal(result.isError, false, result.text);
    assert.equal(readFileSync(join(root, '.github', 'workflows', 'ci.yml'), 'utf8'), 'on: push\n');
  });
});
