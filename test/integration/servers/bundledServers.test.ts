import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as esbuild from 'esbuild';
import { REPO_ROOT, startServer, type ServerProcess } from './serverProcess';

// The same esbuild settings as esbuild.mjs, built into a temp folder so this test checks the bytes
// that ship without racing other parts' builds of dist/.
describe('bundled servers (esbuild output, run as `node <bundle>`)', () => {
  let base: string;
  const servers: ServerProcess[] = [];

  before(async () => {
    base = mkdtempSync(join(tmpdir(), 'sprout-bundle-'));
    await esbuild.build({
      entryPoints: ['workspace', 'todo', 'tests'].map((name) => ({ in: resolve(REPO_ROOT, 'src/servers', name, 'main.ts'), out: name })),
      outdir: join(base, 'servers'),
      bundle: true,
      platform: 'node',
      target: 'node20',
      format: 'cjs',
      logLevel: 'silent',
      banner: { js: '#!/usr/bin/env node' },
    });
  });
  after(async () => {
    for (const server of servers) await server.close().catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  });

  for (const [name, expected] of [
    ['workspace', ['edit_file', 'list_files', 'read_file', 'run_command', 'search_text', 'write_file']],
    ['todo', ['_PostCompact', '_Stop', 'todo']],
    ['tests', ['_Stop', 'run_tests']],
  ] as const) {
    it(`${name}: the bundle starts standalone, lists its tools, and does not claim its fixed list can change`, async () => {
      const script = join(base, 'servers', `${name}.js`);
      assert.ok(statSync(script).size > 0);
      const server = await startServer(name, ['--root', base, '--state-dir', join(base, `${name}-state`)], script);
      servers.push(server);
      const { tools } = await server.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [...expected]);
      assert.notEqual(server.client.getServerCapabilities()?.tools?.listChanged, true);
    });
  }
});
