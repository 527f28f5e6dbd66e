// The model a delegated agent runs on (src/agent/subagents.ts `subagentModel`, README.md#subagents):
// the one its file names when the host's catalog lists it, with the client the host gives for it;
// else the parent's, with a note naming the file. Over an in-memory catalog that records what it served.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AgentProfile, ReachableModel } from '../../../src/agent/agentProfiles';
import type { ModelCatalog, ModelClient } from '../../../src/agent/ports';
import { subagentModel, subagentSettings } from '../../../src/agent/subagents';
import { settings } from './harness';

const scout: AgentProfile = { name: 'scout', description: 'Finds things.', source: '.claude/agents/scout.md', instructions: 'Look.', model: 'haiku' };
const never: ModelClient = { complete: () => Promise.reject(new Error('not called here')) };

class InMemoryCatalog implements ModelCatalog {
  served: string[] = [];
  constructor(private readonly models: ReachableModel[] | Error) {}
  list(): Promise<ReachableModel[]> {
    return this.models instanceof Error ? Promise.reject(this.models) : Promise.resolve(this.models);
  }
  client(model: string): { model: ModelClient; contextWindowTokens?: number } {
    this.served.push(model);
    return { model: never, contextWindowTokens: 64_000 };
  }
}

const signal = new AbortController().signal;

describe('subagentModel', () => {
  it("a listed model (Claude Code's alias matched to an id) is served by the host's client, with its window", async () => {
    const catalog = new InMemoryCatalog([{ id: 'fake-model' }, { id: 'vendor/claude-haiku-4-5' }]);
    const picked = await subagentModel(scout, 'fake-model', catalog, signal);
    assert.equal(picked.model, 'vendor/claude-haiku-4-5');
    assert.equal(picked.client, never);
    assert.equal(picked.note, undefined);
    assert.deepEqual(catalog.served, ['vendor/claude-haiku-4-5']);
    const child = subagentSettings(settings(), scout, picked);
    assert.equal(child.model, 'vendor/claude-haiku-4-5');
    assert.equal(child.contextWindowTokens, 64_000);
  });

  it("no model named, or the parent's own: the parent's model and client, nothing asked of the catalog's client", async () => {
    const catalog = new InMemoryCatalog([{ id: 'fake-model' }]);
    assert.deepEqual(await subagentModel({ ...scout, model: undefined }, 'fake-model', catalog, signal), { model: 'fake-model' });
    assert.deepEqual(await subagentModel({ ...scout, model: 'FAKE-MODEL' }, 'fake-model', undefined, signal), { model: 'fake-model' });
    assert.deepEqual(catalog.served, []);
  });

  it("not listed, a listing that fails, or no catalog: the parent's model with a note naming the file", async () => {
    const note = `.claude/agents/scout.md: the agent "scout" asks for the model "haiku", which Sprout cannot reach here; it uses the chat's model (fake-model).`;
    for (const catalog of [new InMemoryCatalog([{ id: 'other' }]), new InMemoryCatalog(new Error('HTTP 404')), undefined]) {
      const picked = await subagentModel(scout, 'fake-model', catalog, signal);
      assert.deepEqual(picked, { model: 'fake-model', note });
      assert.equal(subagentSettings(settings({ model: 'fake-model' }), scout, picked).model, 'fake-model');
    }
  });

  it('cancelled while listing: the parent\'s model and no note (the child stops at once)', async () => {
    const stop = new AbortController();
    stop.abort();
    assert.deepEqual(await subagentModel(scout, 'fake-model', new InMemoryCatalog([{ id: 'claude-haiku' }]), stop.signal), { model: 'fake-model' });
  });
});
