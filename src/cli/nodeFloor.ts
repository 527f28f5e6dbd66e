/**
 * The oldest Node.js the CLI runs on (package.json's `engines.node`, checked equal by a unit test): the
 * bundled openai SDK declares Node 22, and VS Code 1.101's extension host, the editor's floor, runs
 * 22.15. The launcher checks it before it loads anything else, so an older Node gets one line saying
 * what to install instead of a syntax or API error from deep inside a bundle.
 */
export const NODE_FLOOR = '22.15.0';

function parts(version: string): number[] {
  return version.replace(/^v/, '').split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** True when `version` (`v20.20.2` or `20.20.2`) is at least `floor`. */
export function meetsNodeFloor(version: string, floor: string = NODE_FLOOR): boolean {
  const have = parts(version);
  const need = parts(floor);
  for (let i = 0; i < need.length; i++) {
    const a = have[i] ?? 0;
    const b = need[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** The one line an older Node gets (exit 2: the machine is misconfigured, nothing ran). */
export function nodeFloorMessage(version: string, floor: string = NODE_FLOOR): string {
  const [major, minor] = parts(floor);
  return `sprout-agent needs Node.js ${major}.${minor} or later; this is Node.js ${version.startsWith('v') ? version : `v${version}`}. Install a current Node.js (https://nodejs.org) and run it again.\n`;
}
