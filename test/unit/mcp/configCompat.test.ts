// Config files written for other clients: the `mcpServers` shape (Claude Code, Cursor, Cline) is read
// with a notice, `disabled` servers stay off, unknown keys are named, and VS Code `inputs` fill
// `${input:id}` from the host (a missing one is an error that says where its value comes from).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { inputEnvName, McpConfigError, parseMcpConfig, type MissingInputError } from '../../../src/mcp/config';
import { referencedInputs } from '../../../src/mcp/configInputs';

const vars = (extra: { inputs?: (id: string) => string | undefined } = {}) => {
  const notices: string[] = [];
  return { notices, vars: { workspaceFolder: '/ws', userHome: '/home/me', env: {}, notices, ...extra } };
};

describe('other clients\' config shapes', () => {
  it('reads "mcpServers" and says so', () => {
    const { notices, vars: v } = vars();
    const servers = parseMcpConfig({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem'] }, web: { url: 'https://example.com/mcp' } } }, '.mcp.json', v);
    assert.deepEqual(servers.map((s) => [s.name, s.transport.type]), [['fs', 'stdio'], ['web', 'http']]);
    assert.deepEqual(notices, ['.mcp.json: read the "mcpServers" key (the Claude Code / Cursor / Cline shape).']);
  });

  it('both keys: "servers" first, a name in both taken from "servers", with notices', () => {
    const { notices, vars: v } = vars();
    const servers = parseMcpConfig({ servers: { a: { command: 'from-servers' } }, mcpServers: { a: { command: 'from-mcp' }, b: { command: 'b' } } }, 'f.json', v);
    assert.deepEqual(servers.map((s) => (s.transport.type === 'stdio' ? s.transport.command : '')), ['from-servers', 'b']);
    assert.ok(notices.some((n) => n.includes('as well as "servers"')));
    assert.ok(notices.some((n) => n.includes('server "a" is in both')));
  });

  it('a "disabled" server does not start; unknown keys are named, not silently dropped', () => {
    const { notices, vars: v } = vars();
    const servers = parseMcpConfig({ mcpServers: { off: { command: 'x', disabled: true }, on: { command: 'y', autoApprove: ['t'] } }, extra: 1 }, 'f.json', v);
    assert.deepEqual(servers.map((s) => s.name), ['on']);
    assert.ok(notices.includes('f.json: server "off" is marked "disabled" and does not start.'));
    assert.ok(notices.includes('f.json: server "on": "autoApprove" is not supported and is ignored.'));
    assert.ok(notices.includes('f.json: the key "extra" is not MCP configuration and is ignored.'));
  });
});

describe('VS Code inputs', () => {
  const file = {
    inputs: [
      { type: 'promptString', id: 'api-key', description: 'The API key', password: true },
      { type: 'promptString', id: 'unused', description: 'never referenced' },
    ],
    servers: { remote: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer ${input:api-key}' } }, local: { command: 'x', env: { T: '${input:nowhere}' } } },
  };

  it('finds the inputs the servers use, and the undeclared ones', () => {
    assert.deepEqual(referencedInputs(file), { specs: [{ id: 'api-key', description: 'The API key', password: true }], undeclared: ['nowhere'] });
  });

  it('fills ${input:id} from the host', () => {
    const { vars: v } = vars({ inputs: (id) => ({ 'api-key': 'sk-typed', nowhere: 'n' })[id] });
    const [remote] = parseMcpConfig(file, 'mcp.json', v);
    assert.deepEqual(remote?.transport.type === 'http' ? remote.transport.headers : {}, { Authorization: 'Bearer sk-typed' });
  });

  it('an input without a value is an error naming the file, server, field and where the value comes from', () => {
    const { vars: v } = vars();
    assert.throws(
      () => parseMcpConfig(file, 'mcp.json', v),
      (error: unknown) =>
        error instanceof McpConfigError &&
        error.message.startsWith('mcp.json: server "remote": headers.Authorization: ${input:api-key} has no value') &&
        error.message.includes(inputEnvName('api-key')),
    );
    assert.equal(inputEnvName('api-key'), 'SPROUT_AGENT_INPUT_API_KEY');
  });

  it('with onMissingInput, only the servers missing a value are left out, each reported with whether it is declared', () => {
    const { vars: v } = vars({ inputs: (id) => (id === 'present' ? 'p' : undefined) });
    const missing: MissingInputError[] = [];
    const withPresent = { ...file, servers: { ...file.servers, ok: { command: 'y', env: { P: '${input:present}' } } } };
    const servers = parseMcpConfig(withPresent, 'mcp.json', { ...v, onMissingInput: (m) => missing.push(m) });
    assert.deepEqual(servers.map((s) => s.name), ['ok']);
    assert.deepEqual(missing.map((m) => [m.server, m.field, m.inputId, m.declared]), [
      ['remote', 'headers.Authorization', 'api-key', true],
      ['local', 'env.T', 'nowhere', false],
    ]);
    assert.match(missing[0]?.message ?? '', /\$\{input:api-key\} has no value\. Set SPROUT_AGENT_INPUT_API_KEY/);
    assert.doesNotMatch(missing[0]?.message ?? '', /Declare/);
    assert.match(missing[1]?.message ?? '', /Declare "nowhere" in the file's "inputs"/);
  });
});
