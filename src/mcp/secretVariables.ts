/**
 * Which variables of an mcp.json are secrets, and the consent a workspace-defined server needs before
 * one is put into its configuration. Trusting a folder's servers is consent to run its code, not to
 * hand it the user's secrets: `${env:OPENAI_API_KEY}` in a workspace server's headers would send the
 * key to an origin the repository chose, in its arguments to a program it chose. So expanding a
 * secret-looking variable in a workspace-defined server asks the host's policy, which names the
 * variable and where it would go (the CLI: a flag naming the variable; the editor: a modal per server
 * and variable). A server the user defined (user settings, a file outside the workspace) is not asked.
 */
/** A variable is secret by name: `*_KEY`, `*_TOKEN`, `*_SECRET` (and plurals), or anything with a password or credential in it. */
const SECRET_NAME = /(?:KEY|TOKEN|SECRET)S?$|PASSW(?:OR)?D|CREDENTIAL|^OPENAI_API_KEY$/i;

/** True when `name` looks like a secret, or its value is one the host knows (the model key). */
export function isSecretVariable(name: string, value: string | undefined, knownSecrets: readonly string[] = []): boolean {
  if (SECRET_NAME.test(name)) return true;
  return value !== undefined && value.length >= 8 && knownSecrets.includes(value);
}

/** One secret a server's configuration would receive. */
export interface SecretUse {
  server: string;
  /** The environment variable read, e.g. `OPENAI_API_KEY`. */
  variable: string;
  /** Where in the entry, e.g. `headers.Authorization`, `args.2`, `env.TOKEN`. */
  field: string;
  /** Who receives it: the HTTP server's origin, or the program a stdio server runs. */
  destination: string;
}

/** How a host decides on secrets in workspace-defined servers. */
export interface SecretPolicy {
  /** Secret values the host knows (the model key), so a variable holding one counts whatever its name. */
  knownSecrets?: readonly string[];
  /** True lets the value into the configuration. */
  allow(use: SecretUse): boolean;
  /** What the user does to allow it, for the refusal ("pass --allow-secret-env NAME"). */
  howToAllow(use: SecretUse): string;
}

/** Where a transport sends what it is configured with. */
export function destinationOf(transport: { type: string; url?: string; command?: string }): string {
  if (transport.type === 'http') {
    try {
      return new URL(transport.url ?? '').origin;
    } catch {
      return transport.url ?? 'an HTTP server';
    }
  }
  return `the program "${transport.command ?? ''}"`;
}

/** The refusal a user reads: which server, which variable, where it would have gone, how to allow it. */
export function secretRefusal(use: SecretUse, howToAllow: string): string {
  return (
    `the secret \${env:${use.variable}} would go to ${use.destination}. ` +
    `A workspace's servers get none of your secrets unless you allow each one: ${howToAllow}, or remove the variable from the configuration.`
  );
}
