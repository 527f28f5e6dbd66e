/**
 * dist/hookBridge.js: what the launcher loads for `sprout-agent hooks run`. A warm hook call is one
 * request to the hook host, so only the light client is parsed; the full CLI (dist/cliMain.js) is
 * loaded only when the event has to run in this process. The answer goes to another agent's input and
 * its terminal, and it came from another process (a host of another version, even): neutralised here,
 * at the one place that prints it, whatever the host did already.
 */
import { join } from 'node:path';
import type { BridgeRequest, BridgeResponse } from './bridgeHandler';
import { askHookHost, readPayload } from './bridgeClient';
import { agentProcessId } from './hookHostWire';
import { neutralizeProgramOutput } from '../../platform/terminalText';

export async function main(argv: readonly string[]): Promise<void> {
  const request: BridgeRequest = { argv: [...argv], stdin: await readPayload(process.stdin), cwd: process.cwd(), env: { ...process.env }, agentPid: agentProcessId() };
  const cliMain = join(__dirname, 'cliMain.js');
  let answer = await askHookHost(request, cliMain);
  if (answer === undefined) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const full = require(cliMain) as { answerBridgeLocally(request: BridgeRequest): Promise<BridgeResponse> };
    answer = await full.answerBridgeLocally(request);
  }
  const [stdout, stderr] = [neutralizeProgramOutput(answer.stdout), neutralizeProgramOutput(answer.stderr)];
  process.stdout.write(stdout, () => process.stderr.write(stderr, () => process.exit(answer.exitCode)));
}
