/**
 * dist/hookBridge.js: what the launcher loads for `sprout-agent hooks run`. A warm hook call is one
 * request to the hook host, so only the light client is parsed; the full CLI (dist/cliMain.js) is
 * loaded only when the event has to run in this process.
 */
import { join } from 'node:path';
import type { BridgeRequest, BridgeResponse } from './bridgeHandler';
import { askHookHost, readPayload } from './bridgeClient';
import { agentProcessId } from './hookHostWire';

export async function main(argv: readonly string[]): Promise<void> {
  const request: BridgeRequest = { argv: [...argv], stdin: await readPayload(process.stdin), cwd: process.cwd(), env: { ...process.env }, agentPid: agentProcessId() };
  const cliMain = join(__dirname, 'cliMain.js');
  let answer = await askHookHost(request, cliMain);
  if (answer === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const full = require(cliMain) as { answerBridgeLocally(request: BridgeRequest): Promise<BridgeResponse> };
    answer = await full.answerBridgeLocally(request);
  }
  const { stdout, stderr, exitCode } = answer;
  process.stdout.write(stdout, () => process.stderr.write(stderr, () => process.exit(exitCode)));
}
