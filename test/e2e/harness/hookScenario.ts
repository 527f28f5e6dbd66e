// The hook server the e2e chats run against (FakeHookServer under tsx, objecting `times` times at
// `_Stop` with `objection`), as the `sprout.mcp.servers` value that starts it as the server `hooks`.
import { pathToFileURL } from 'node:url';
import { HOOK_SERVER_ENTRY, HOOK_SERVER_ENV, hookServerConfig, objectTimes } from '../../fakes/hookServer';

export function objectingHookServer(objection: string, times = 1): Record<string, unknown> {
  const tsx = pathToFileURL(require.resolve('tsx')).href;
  const config = hookServerConfig({ hooks: { _Stop: objectTimes(objection, times) } });
  return { hooks: { type: 'stdio', command: process.execPath, args: ['--import', tsx, HOOK_SERVER_ENTRY], env: { [HOOK_SERVER_ENV]: JSON.stringify(config) } } };
}
