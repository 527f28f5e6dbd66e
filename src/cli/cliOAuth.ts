/**
 * Sign-in for the CLI: the sign-in URL is printed (nobody may be there to open a browser, and a
 * terminal user can open it anywhere), the redirect comes back to a loopback port on this machine, and
 * tokens and client registrations live in the user's private state folder
 * ($XDG_STATE_HOME/sprout-agent/oauth, else ~/.local/state/...), one file per server, readable by
 * the user only (0600 in a 0700 folder). Nothing of it is printed or logged.
 */
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OAuthHost, OAuthRecord, OAuthStore } from '../mcp/oauthClient';
import { privateStateDir, stateHome, writePrivateFileAtomic } from '../platform/privateState';
import type { WritableLike } from '../runtime/streamLogger';
import type { Env } from './cliSettings';
import { quotedName } from '../agent/nameText';

class FileOAuthStore implements OAuthStore {
  constructor(private readonly env: Env) {}

  /** Checked from the state root down before tokens are written (a symlinked root is refused). */
  private get dir(): string {
    return join(stateHome(this.env), 'oauth');
  }

  async load(key: string): Promise<OAuthRecord | undefined> {
    try {
      return JSON.parse(readFileSync(this.file(key), 'utf8')) as OAuthRecord;
    } catch {
      return undefined;
    }
  }

  async save(key: string, record: OAuthRecord): Promise<void> {
    // Written whole and then renamed, so a crash never leaves half a token file.
    privateStateDir(this.env, 'oauth');
    writePrivateFileAtomic(this.file(key), JSON.stringify(record));
  }

  async clear(key: string): Promise<void> {
    rmSync(this.file(key), { force: true });
  }

  private file(key: string): string {
    return join(this.dir, `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.json`);
  }
}

export function cliOAuthHost(env: Env, stderr: WritableLike): OAuthHost {
  return {
    store: new FileOAuthStore(env),
    clientName: 'Sprout Agent CLI',
    openSignIn: (server, url) => {
      stderr.write(`sprout-agent: MCP server ${quotedName(server)} asks you to sign in. Open this URL in a browser on this machine:\n  ${url.href}\n`);
    },
  };
}
