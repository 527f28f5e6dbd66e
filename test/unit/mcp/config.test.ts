import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadMcpConfigFile, McpConfigError, parseMcpConfig } from '../../../src/mcp/config';
import { stripJsonComments } from '../../../src/mcp/jsonc';

const vars = { workspaceFolder: '/ws/proj', userHome: '/home/me', env: { TOKEN: 'tok-123', BIN: '/opt/bin' } };

function parseError(json: unknown): McpConfigError {
  try {
    parseMcpConfig(json, 'mcp.json', vars);
  } catch (error) {
    assert.ok(error instanceof McpConfigError, `expected McpConfigError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected an error');
}

describe('parseMcpConfig', () => {
  it('keeps file order and fills stdio defaults', () => {
    const servers = parseMcpConfig(
      { servers: { zeta: { command: 'z' }, alpha: { type: 'stdio', command: 'a', args: ['x'], cwd: 'sub' } } },
      'mcp.json',
      vars,
    );
    assert.deepEqual(
      servers.map((s) => s.name),
      ['zeta', 'alpha'],
    );
    assert.deepEqual(servers[0]?.transport, { type: 'stdio', command: 'z', args: [], env: {}, cwd: '/ws/proj' });
    assert.deepEqual(servers[1]?.transport, { type: 'stdio', command: 'a', args: ['x'], env: {}, cwd: '/ws/proj/sub' });
  });

  it('expands workspaceFolder, userHome and env variables everywhere', () => {
    const [s, h] = parseMcpConfig(
      {
        servers: {
          s: {
            command: '${env:BIN}/srv',
            args: ['${workspaceFolder}/a', '${userHome}/b', '${env:MISSING}x'],
            env: { KEY: '${env:TOKEN}', N: 3 },
            cwd: '${userHome}/work',
          },
          h: { type: 'http', url: 'https://example.com/${env:TOKEN}/mcp', headers: { Authorization: 'Bearer ${env:TOKEN}' } },
        },
      },
      'mcp.json',
      vars,
    );
    assert.deepEqual(s?.transport, {
      type: 'stdio',
      command: '/opt/bin/srv',
      args: ['/ws/proj/a', '/home/me/b', 'x'],
      env: { KEY: 'tok-123', N: '3' },
      cwd: '/home/me/work',
    });
    assert.deepEqual(h?.transport, {
      type: 'http',
      url: 'https://example.com/tok-123/mcp',
      headers: { Authorization: 'Bearer tok-123' },
    });
  });

  it('infers http from a url without a type', () => {
    const [h] = parseMcpConfig({ servers: { h: { url: 'http://127.0.0.1:1/mcp' } } }, 'mcp.json', vars);
    assert.equal(h?.transport.type, 'http');
  });

  it('rejects ${input:...} with what to do instead, naming file, server and field', () => {
    const error = parseError({ servers: { gh: { command: 'x', env: { TOKEN: '${input:token}' } } } });
    assert.match(error.message, /^mcp\.json: server "gh": env\.TOKEN: /);
    assert.match(error.message, /\$\{env:NAME\}/);
    assert.equal(error.server, 'gh');
    assert.equal(error.field, 'env.TOKEN');
  });

  it('reads sse as http: Streamable HTTP first, the old HTTP+SSE transport when that is all the server has', () => {
    const [old] = parseMcpConfig({ servers: { old: { type: 'sse', url: 'http://x/sse', headers: { A: 'b' } } } }, 'mcp.json', { workspaceFolder: '/ws' });
    assert.deepEqual(old?.transport, { type: 'http', url: 'http://x/sse', headers: { A: 'b' } });
  });

  it('names the field of a schema error', () => {
    assert.equal(parseError({ servers: { s: { command: 'x', args: [1] } } }).field, 'args.0');
    assert.equal(parseError({ servers: { s: { type: 'stdio' } } }).field, 'command');
    assert.equal(parseError({ servers: { s: { type: 'http', url: 'ftp://x' } } }).field, 'url');
    assert.equal(parseError({ servers: { s: { type: 'pigeon', command: 'x' } } }).field, 'type');
    assert.equal(parseError({ servers: { s: 'npx thing' } }).server, 's');
  });

  it('rejects bad server names via validateServerName', () => {
    const error = parseError({ servers: { 'a__b': { command: 'x' } } });
    assert.equal(error.server, 'a__b');
    assert.equal(error.field, 'name');
    assert.match(error.message, /invalid/);
  });

  it('rejects a server named "sprout" (any case): the core\'s own tools are sprout__search_tools, sprout__read_skill', () => {
    for (const name of ['sprout', 'Sprout']) {
      const error = parseError({ servers: { [name]: { command: 'x' } } });
      assert.equal(error.field, 'name');
      assert.match(error.message, /is reserved: Sprout's own tools are named "sprout__\.\.\."[\s\S]*Rename the server/);
    }
    assert.doesNotThrow(() => parseMcpConfig({ servers: { sprouts: { command: 'x' } } }, 'mcp.json', vars));
  });

  it('rejects unknown variables', () => {
    assert.match(parseError({ servers: { s: { command: '${nope}' } } }).message, /unknown variable \$\{nope\}/);
  });

  it('rejects a file without an object of servers', () => {
    const error = parseError({ servers: [] });
    assert.equal(error.server, undefined);
    assert.match(error.message, /^mcp\.json: servers: /);
  });
});

describe('loadMcpConfigFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'sprout-mcpcfg-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('reads JSONC with comments and trailing commas, and envFile values', () => {
    writeFileSync(join(dir, '.env'), '# secrets\nexport A=1\nB="two words"\nC=3 # trailing\n');
    const file = join(dir, 'mcp.json');
    writeFileSync(
      file,
      `{
        // a comment, and a url-looking string that must survive
        "servers": { "s": { "command": "run", "args": ["http://x/y", "a,}"], "envFile": "${dir}/.env", "env": { "C": "over" }, }, },
        /* block */ "inputs": [],
      }`,
    );
    const [s] = loadMcpConfigFile(file, { workspaceFolder: dir });
    assert.deepEqual(s?.transport, { type: 'stdio', command: 'run', args: ['http://x/y', 'a,}'], env: { A: '1', B: 'two words', C: 'over' }, cwd: dir });
  });

  it('names the file for unreadable or invalid JSON', () => {
    assert.throws(() => loadMcpConfigFile(join(dir, 'missing.json'), { workspaceFolder: dir }), /missing\.json: cannot read/);
    writeFileSync(join(dir, 'bad.json'), '{ "servers": ');
    assert.throws(() => loadMcpConfigFile(join(dir, 'bad.json'), { workspaceFolder: dir }), /bad\.json: not valid JSON/);
  });

  it('names the server and envFile field when the env file is missing', () => {
    const file = join(dir, 'envfile.json');
    writeFileSync(file, JSON.stringify({ servers: { s: { command: 'x', envFile: 'nope.env' } } }));
    assert.throws(() => loadMcpConfigFile(file, { workspaceFolder: dir }), /server "s": envFile: cannot read/);
  });
});

describe('stripJsonComments', () => {
  it('leaves strings alone', () => {
    const text = '{"a": "// not a comment", "b": "/* nor */", "c": "x,]"}';
    assert.deepEqual(JSON.parse(stripJsonComments(text)), JSON.parse(text));
  });
});
