/**
 * The FakeOpenAiServer in its own process for the loop bench, so its JSON parsing, request checks
 * and garbage do not share a thread (or a heap) with the client being measured. It answers every chat
 * request with the same short streamed reply, keeps no request records (thousands of 100 KB bodies
 * would not fit), and checks what the bench relies on: every request valid, and the two requests of
 * each pair (agent, bare; in either order) byte-identical. The counts come back when stdin closes.
 *
 * `startBenchOpenAiServer()` spawns it; running this file directly is the child's side.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fakeReply, startFakeOpenAi, type FakeOpenAi } from '../fakes/fakeOpenAiServer';

export interface BenchServerStats {
  requests: number;
  invalid: number;
  /** Pairs whose two request bodies were byte-identical. */
  identicalPairs: number;
  differingPairs: number;
  /** Size of the last request body, in characters. */
  lastBodyChars: number;
  problems: string[];
}

export interface BenchOpenAiServer {
  url: string;
  /** Ends the child and returns what it saw. */
  close(): Promise<BenchServerStats>;
}

const REPO_ROOT = join(__dirname, '..', '..');

export async function startBenchOpenAiServer(): Promise<BenchOpenAiServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', __filename], { cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const next = (): Promise<string> =>
    new Promise((resolve, reject) => {
      const onLine = (line: string): void => {
        child.off('exit', onExit);
        resolve(line);
      };
      const onExit = (): void => {
        lines.off('line', onLine);
        reject(new Error(`bench OpenAI server exited early: ${stderr.trim()}`));
      };
      lines.once('line', onLine);
      child.once('exit', onExit);
    });
  try {
    const url = await next();
    return {
      url,
      close: async () => {
        const stats = next();
        child.stdin.end();
        try {
          return JSON.parse(await stats) as BenchServerStats;
        } finally {
          await exited;
        }
      },
    };
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
}

function serve(): void {
  const stats: BenchServerStats = { requests: 0, invalid: 0, identicalPairs: 0, differingPairs: 0, lastBodyChars: 0, problems: [] };
  let firstOfPair: string | undefined;
  let fake: FakeOpenAi | undefined;
  const note = (problem: string): void => {
    if (stats.problems.length < 5) stats.problems.push(problem);
  };
  startFakeOpenAi({
    onRequest: (record) => {
      stats.requests += 1;
      stats.lastBodyChars = record.rawBody.length;
      if (!record.valid) {
        stats.invalid += 1;
        note(`request ${stats.requests}: ${record.error ?? 'invalid'}`);
      }
      if (firstOfPair === undefined) {
        firstOfPair = record.rawBody;
      } else {
        if (firstOfPair === record.rawBody) stats.identicalPairs += 1;
        else {
          stats.differingPairs += 1;
          note(`request ${stats.requests}: body of ${record.rawBody.length} chars differs from its pair's ${firstOfPair.length}`);
        }
        firstOfPair = undefined;
      }
      if (fake) fake.requests.length = 0;
    },
  }).then(
    (started) => {
      fake = started;
      fake.setResponder(() => fakeReply.text('ok'));
      process.stdout.write(`${fake.url}\n`);
      process.stdin.on('data', () => undefined);
      process.stdin.on('end', () => {
        process.stdout.write(`${JSON.stringify(stats)}\n`, () => void started.close().then(() => process.exit(0)));
      });
    },
    (error: unknown) => {
      process.stderr.write(`bench OpenAI server failed: ${String(error)}\n`);
      process.exit(1);
    },
  );
}

if (require.main === module) serve();
