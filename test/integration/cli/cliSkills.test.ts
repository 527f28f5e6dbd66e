// Agent Skills through the real CLI (dist/) against the fake model server: each skill's name and
// description are in the system message (its body is not), the model calls sprout__read_skill and gets
// the body in the tool turn, an untrusted run sees only the user's skills (and says once why), and
// `sprout-agent skills --json` lists them with the notes for a SKILL.md that cannot be used.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import { assertAllRequestsValid } from '../loop/loopHarness';
import { baseEnv, parseEvents, runCli } from './cliHarness';
import { cliFixture } from './cliRun';

const cli = cliFixture('sprout-cli-skills-');

type Message = { role: string; content: string | null };
type Body = { messages: Message[]; tools?: { function: { name: string } }[] };

function bodyOf(index: number): Body {
  return cli.fake?.chatRequests()[index]?.body as Body;
}

function workspace(name: string): { ws: string; home: string } {
  const ws = join(cli.dir, name);
  const home = join(cli.dir, `${name}-home`);
  const write = (path: string, text: string): void => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, text);
  };
  write(join(ws, '.github/skills/release-notes/SKILL.md'), '---\nname: release-notes\ndescription: Writes release notes from the changelog.\n---\nRELEASE-BODY: read references/format.md, then run scripts/notes.sh.\n');
  write(join(ws, '.github/skills/release-notes/references/format.md'), 'FORMAT-FILE: one bullet per change.\n');
  write(join(ws, '.claude/skills/misnamed/SKILL.md'), '---\nname: other\ndescription: a name unlike its folder\n---\nbody\n');
  write(join(home, '.claude/skills/my-style/SKILL.md'), '---\nname: my-style\ndescription: My personal code style.\n---\nSTYLE-BODY: tabs.\n');
  return { ws, home };
}

function env(home: string): Record<string, string> {
  return { ...baseEnv(cli.fake?.url ?? ''), HOME: home, SPROUT_AGENT_BUILTIN_SERVERS: 'workspace', XDG_STATE_HOME: join(home, 'state') };
}

test('the skills are listed in the system message; the model reads one through sprout__read_skill and gets its body and a file', async () => {
  const fake = await cli.startFake({
    responses: [
      fakeReply.toolCalls([{ name: 'sprout__read_skill', arguments: { name: 'release-notes' } }]),
      fakeReply.toolCalls([{ name: 'sprout__read_skill', arguments: { name: 'release-notes', file: 'references/format.md' } }]),
      fakeReply.text('done'),
    ],
  });
  const { ws, home } = workspace('trusted');
  const result = await runCli(['--json', '--trust-workspace', '--cwd', ws, 'write the release notes'], { env: env(home) });
  assert.equal(result.code, 0, result.stderr);
  const first = bodyOf(0);
  const system = String(first.messages[0]?.content);
  assert.equal(first.messages[0]?.role, 'system');
  assert.match(system, /- my-style: My personal code style\./);
  assert.match(system, /- release-notes: Writes release notes from the changelog\./);
  assert.doesNotMatch(system, /RELEASE-BODY|STYLE-BODY/, 'bodies are read on demand, not sent up front');
  assert.ok(first.tools?.some((t) => t.function.name === 'sprout__read_skill'), 'the read tool is offered');
  const tool = (index: number): string => String(bodyOf(index).messages.filter((m) => m.role === 'tool').at(-1)?.content);
  assert.match(tool(1), /RELEASE-BODY: read references\/format\.md/);
  assert.match(tool(1), /run only through the shell tool, with the user's approval/);
  assert.match(tool(2), /FORMAT-FILE: one bullet per change/);
  const announced = parseEvents(result.stdout).filter((e) => e.type === 'skills');
  assert.equal(announced.length, 1);
  assert.match(JSON.stringify(announced[0]), /\.claude\/skills\/misnamed\/SKILL\.md:2: skipped, its name \\"other\\" is not its folder's name \\"misnamed\\"/);
  assertAllRequestsValid(fake.requests);
});

test('an untrusted run sees only the user\'s skills and says once why; a read of a workspace skill is refused', async () => {
  const fake = await cli.startFake({ responses: [fakeReply.toolCalls([{ name: 'sprout__read_skill', arguments: { name: 'release-notes' } }]), fakeReply.text('done')] });
  const { ws, home } = workspace('untrusted');
  const result = await runCli(['--cwd', ws, 'write the release notes'], { env: env(home) });
  assert.equal(result.code, 0, result.stderr);
  const system = String(bodyOf(0).messages[0]?.content);
  assert.match(system, /- my-style: My personal code style\./);
  assert.doesNotMatch(system, /release-notes/);
  const answer = String(bodyOf(1).messages.filter((m) => m.role === 'tool').at(-1)?.content);
  assert.match(answer, /no skill named "release-notes"\. Skills: my-style\./);
  assert.doesNotMatch(answer, /RELEASE-BODY/);
  assert.equal(result.stderr.match(/none of its skills/g)?.length, 1, result.stderr);
  assertAllRequestsValid(fake.requests);
});

test('sprout-agent skills --json lists the skills with their notes', async () => {
  const { ws, home } = workspace('listed');
  const listed = await runCli(['skills', '--json', '--cwd', ws], { env: { ...baseEnv(''), HOME: home } });
  assert.equal(listed.code, 0, listed.stderr);
  const out = JSON.parse(listed.stdout) as { skills: { name: string; scope: string }[]; notes: string[] };
  assert.deepEqual(out.skills.map((s) => `${s.scope} ${s.name}`), ['user my-style', 'workspace release-notes']);
  assert.equal(out.notes.length, 1);
  assert.match(out.notes[0] ?? '', /misnamed\/SKILL\.md:2/);
});
