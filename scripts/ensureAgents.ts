// Installs the coding agents the agents suite drives headless (Claude Code, Codex, Gemini CLI), at
// pinned versions, from the npm registry into the user's cache folder (`~/.cache/sprout-agent/agents`,
// or SPROUT_AGENTS_CACHE), once per version; later runs reuse them through a marker file. Outside the
// checkout, like the editor: nothing of theirs is ever committed. An agent that cannot be installed
// (no registry, a platform without its binary) is reported with the reason, and its tests skip.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheLock } from './cacheLock';
import { sproutCacheDir } from './ensureCodeServer';

export type RealAgent = 'claude' | 'codex' | 'gemini';

/** Pinned: the suites assert these agents' hook behaviour, which changes between releases. */
export const AGENT_PACKAGES: Record<RealAgent, { name: string; version: string; bin: string }> = {
  claude: { name: '@anthropic-ai/claude-code', version: '2.1.332', bin: 'claude' },
  codex: { name: '@openai/codex', version: '0.171.0', bin: 'codex' },
  gemini: { name: '@google/gemini-cli', version: '0.61.0', bin: 'gemini' },
};

export type AgentInstall = { ok: true; bin: string; version: string } | { ok: false; reason: string };

export function agentsCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const override = env['SPROUT_AGENTS_CACHE'];
  return override && override.trim() !== '' ? override : join(sproutCacheDir(env), 'agents');
}

/** Installs (or finds) one agent; never throws for an install that fails, it says why. */
export function ensureAgent(agent: RealAgent, env: NodeJS.ProcessEnv = process.env): AgentInstall {
  const pkg = AGENT_PACKAGES[agent];
  const dir = join(agentsCacheDir(env), `${agent}-${pkg.version}`);
  const marker = join(dir, 'installed.json');
  const bin = join(dir, 'node_modules', '.bin', pkg.bin);
  if (existsSync(marker) && existsSync(bin)) return { ok: true, bin, version: pkg.version };
  mkdirSync(agentsCacheDir(env), { recursive: true });
  const release = cacheLock(dir);
  try {
    if (existsSync(marker) && existsSync(bin)) return { ok: true, bin, version: pkg.version };
    mkdirSync(dir, { recursive: true });
    const result = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--prefix', dir, `${pkg.name}@${pkg.version}`], {
      encoding: 'utf8',
      env: { ...env, npm_config_update_notifier: 'false' },
      timeout: 15 * 60_000,
    });
    if (result.status !== 0 || !existsSync(bin)) {
      const why = (result.stderr || result.error?.message || '').trim().split('\n').slice(-3).join(' ');
      return { ok: false, reason: `npm install ${pkg.name}@${pkg.version} failed${why ? `: ${why}` : ''}` };
    }
    writeFileSync(marker, JSON.stringify({ package: pkg.name, version: pkg.version }));
    return { ok: true, bin, version: pkg.version };
  } finally {
    release();
  }
}
