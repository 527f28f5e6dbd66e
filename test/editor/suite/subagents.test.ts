// A subagent in the real extension host (README.md#subagents, docs/hooks.md#subagents): the scripted
// fake model delegates a task to the built-in general agent, whose own tool call (the bundled workspace
// server's list_files) shows as a card of its own, tagged with the subagent and placed under the
// delegate card, as the chat views receive it; the child's answer is the delegate card's result, and
// the parent's next request has the child's answer but not its calls. Claude Code's subagents are the
// model (https://docs.anthropic.com/en/docs/claude-code/sub-agents).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fakeReply } from '../../fakes/fakeOpenAiServer';
import type { ChatEntry, HostMessage } from '../../../src/shared/protocol';
import { approveUntilDone, fakeModelForSuite, sproutApi, toolCards } from '../sproutHarness';

type Body = { messages: Array<{ role: string; content: unknown; tool_call_id?: string }> };

describe('subagents in the chat (the nested card)', function () {
  this.timeout(120_000);
  const model = fakeModelForSuite(
    {
      models: ['fake-model'],
      responses: [
        fakeReply.toolCalls([{ id: 'd1', name: 'sprout__delegate', arguments: { agent: 'general', task: 'List the files and say how many there are.' } }]),
        fakeReply.toolCalls([{ id: 'c1', name: 'workspace__list_files', arguments: { path: '.' } }]),
        fakeReply.text('There are some files.'),
        fakeReply.text('The subagent counted the files.'),
      ],
    },
    { provider: 'openai', builtin: { workspace: true } },
  );

  it("shows the child's tool call as its own card, tagged and under the delegate card; the child's answer is the delegate's result", async () => {
    const sprout = await sproutApi();
    await vscode.commands.executeCommand('sprout.newChat');
    const chat = await sprout.controller.current();
    const posted: HostMessage[] = [];
    const port = sprout.views.attach({ post: (message) => void posted.push(message), visible: () => false });
    try {
      const sent = sprout.controller.send('count the files with a subagent');
      await approveUntilDone(sprout, chat);
      await sent;
    } finally {
      port.dispose();
    }
    const cards = toolCards(chat.view.entries);
    assert.deepEqual(cards.map((c) => [c.name, c.subagent?.name ?? null, c.status]), [
      ['sprout__delegate', null, 'ok'],
      ['workspace__list_files', 'general', 'ok'],
    ]);
    const delegate = cards[0];
    const child = cards[1];
    assert.equal(child?.subagent?.id, 'sub-1');
    assert.equal(child?.id, 't-d1/c1', "keyed by the delegate call's id and its own");
    assert.equal(delegate?.result, 'There are some files.', "the child's answer is the delegate call's result");
    const order = chat.view.entries.map((e) => e.id);
    assert.ok(order.indexOf(child?.id ?? '') > order.indexOf(delegate?.id ?? ''), 'the child card comes under the delegate card');
    // What the chat views received is what they draw: the tagged card (toolCard.ts nests it by the tag).
    const postedChild = posted.flatMap((m) => (m.type === 'entry' && m.entry.id === 't-d1/c1' ? [m.entry as ChatEntry] : [])).at(-1);
    assert.ok(postedChild?.kind === 'tool' && postedChild.subagent?.name === 'general' && postedChild.status === 'ok', JSON.stringify(postedChild));

    const last = model.fake.chatRequests().at(-1)?.body as Body;
    assert.equal(last.messages.find((m) => m.role === 'tool' && m.tool_call_id === 'd1')?.content, 'There are some files.');
    assert.ok(!last.messages.some((m) => m.tool_call_id === 'c1'), "the child's calls stay in its own history");
  });
});
