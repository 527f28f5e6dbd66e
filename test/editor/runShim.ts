// The VS Code executable shim's body (runShim.sh): reads the arguments desktop VS Code would get
// (`--extensionDevelopmentPath=`, `--extensionTestsPath=`, a folder) and runs the suite in the VS Code
// server through Chromium. The extensionTestsEnv a launcher passes is this process's environment,
// which runInServer hands on to the extension host.
import { delimiter } from 'node:path';
import { ensureCodeServer } from '../../scripts/ensureCodeServer';
import { runExtensionTests } from './runInServer';

export interface ShimArgs {
  extensionDevelopmentPath?: string;
  extensionTestsPath?: string;
  folder?: string;
}

/** Desktop-style flags (`--x=v` or `--x v`); the first bare argument is the folder. Flags we have no use for are ignored. */
export function parseShimArgs(argv: string[]): ShimArgs {
  const out: ShimArgs = {};
  const valueFlags = new Set(['--user-data-dir', '--extensions-dir', '--extensionDevelopmentPath', '--extensionTestsPath', '--locale']);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const eq = arg.indexOf('=');
    const [flag, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? (valueFlags.has(flag) ? argv[++i] : undefined);
    if (flag === '--extensionDevelopmentPath') out.extensionDevelopmentPath = value();
    else if (flag === '--extensionTestsPath') out.extensionTestsPath = value();
    else if (flag.startsWith('--')) {
      if (inline === undefined && valueFlags.has(flag)) i++;
    } else if (out.folder === undefined) out.folder = arg;
  }
  return out;
}

async function main(): Promise<number> {
  const args = parseShimArgs(process.argv.slice(2));
  if (!args.extensionDevelopmentPath || !args.extensionTestsPath) {
    console.error(`runShim: expected --extensionDevelopmentPath= and --extensionTestsPath= (got ${process.argv.slice(2).join(' ')})`);
    return 2;
  }
  // Fixture extensions the launcher wants beside the one under development (see run.ts).
  const installVsix = (process.env['SPROUT_EDITOR_INSTALL_VSIX'] ?? '').split(delimiter).filter((p) => p !== '');
  return runExtensionTests({
    install: ensureCodeServer(),
    installVsix,
    extensionDevelopmentPath: args.extensionDevelopmentPath,
    extensionTestsPath: args.extensionTestsPath,
    ...(args.folder ? { workspace: args.folder } : {}),
  });
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (e: unknown) => {
      console.error(e instanceof Error ? (e.stack ?? e.message) : e);
      process.exit(1);
    },
  );
}
