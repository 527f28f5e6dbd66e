/**
 * What a strict `node:util` parseArgs error says to a person. Node's own text for an unknown option
 * is about positionals ("place it at the end of the command after '--'"), which is rarely what went
 * wrong: the option was misspelt, or it is a setting this command reads from the environment (other
 * CLIs take `--base-url`; Sprout's CLI reads OPENAI_BASE_URL). So an unknown option is named with the
 * closest real one, or with the environment variable it spells; every other error keeps Node's words.
 */

/** Prefixes an environment variable's name drops when spelt as an option (`OPENAI_BASE_URL` is `--base-url`). */
const ENV_PREFIXES = ['SPROUT_AGENT_', 'OPENAI_'];

function optionSpellings(variable: string): string[] {
  const spell = (name: string): string => name.toLowerCase().replace(/_/g, '-');
  const stripped = ENV_PREFIXES.filter((p) => variable.startsWith(p)).map((p) => spell(variable.slice(p.length)));
  return [spell(variable), ...stripped];
}

/** Levenshtein distance, for "did you mean". */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * The message for `error` thrown by parseArgs over `options` (their names without dashes);
 * `environment` lists the variables the command reads settings from.
 */
export function explainArgsError(error: unknown, options: Readonly<Record<string, unknown>>, environment: readonly string[] = []): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION' || unknown === undefined) return message;
  const name = unknown.replace(/^-+/, '').split('=')[0]!.toLowerCase();
  const variable = environment.find((v) => optionSpellings(v).includes(name));
  if (variable !== undefined) return `Unknown option ${unknown}: this command reads that setting from the environment variable ${variable} (${variable}=... before the command).`;
  const [closest] = Object.keys(options)
    .map((option) => ({ option, d: distance(name, option) }))
    .filter(({ option, d }) => d <= Math.max(2, Math.floor(option.length / 3)) || (name.length >= 3 && option.startsWith(name)))
    .sort((x, y) => x.d - y.d);
  return closest === undefined ? `Unknown option ${unknown}.` : `Unknown option ${unknown}: did you mean --${closest.option}?`;
}
