/**
 * The endpoint's model list kept by EndpointModelList (src/runtime/endpointModels.ts), over real HTTP
 * to the fake model server, which counts every `GET /v1/models`: one listing serves every later ask
 * for the same endpoint (a prompt's agent, each delegation), asks made together share one request, a
 * failed listing (503 while the server loads) is asked again, and another endpoint (here another key)
 * or a fresh ask (the model picker) lists anew.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { OpenAiModelClient } from '../../../src/model/openAiModelClient';
import { EndpointModelList, endpointModelCatalog } from '../../../src/runtime/endpointModels';
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiOptions } from '../../fakes/fakeOpenAiServer';

async function fakeFor(t: TestContext, options: FakeOpenAiOptions): Promise<FakeOpenAi> {
  const fake = await startFakeOpenAi(options);
  t.after(() => fake.close());
  return fake;
}

const listings = (fake: FakeOpenAi): number => fake.requests.filter((r) => r.method === 'GET' && r.path === '/v1/models').length;

interface Endpoint {
  baseUrl: string;
  apiKey: string;
}

function lister(): { list: (endpoint: Endpoint, fresh?: boolean) => Promise<string[]> } {
  const kept = new EndpointModelList<Endpoint>((a, b) => a.baseUrl === b.baseUrl && a.apiKey === b.apiKey);
  return {
    list: (endpoint, fresh = false) => kept.list(endpoint, (signal) => new OpenAiModelClient({ ...endpoint }).listModels(signal), { fresh }),
  };
}

test('one listing serves every ask for the same endpoint; asks made together share it', async (t) => {
  const fake = await fakeFor(t, { models: ['fake-model', 'fast-model'] });
  const models = lister();
  const endpoint = { baseUrl: fake.url, apiKey: 'sk-one' };
  const together = await Promise.all([models.list(endpoint), models.list({ ...endpoint })]);
  assert.deepEqual(together, [['fake-model', 'fast-model'], ['fake-model', 'fast-model']]);
  for (let i = 0; i < 3; i += 1) assert.deepEqual(await models.list({ ...endpoint }), ['fake-model', 'fast-model']);
  assert.equal(listings(fake), 1);
});

test('a failed listing is not kept: the next ask lists again, and that answer is kept', async (t) => {
  const fake = await fakeFor(t, { models: ['fake-model'], modelsUnavailable: 1 });
  const models = lister();
  const endpoint = { baseUrl: fake.url, apiKey: 'sk-one' };
  await assert.rejects(models.list(endpoint), /503|loading/);
  assert.deepEqual(await models.list(endpoint), ['fake-model']);
  assert.deepEqual(await models.list(endpoint), ['fake-model']);
  assert.equal(listings(fake), 2);
});

test('another key or a fresh ask lists anew', async (t) => {
  const fake = await fakeFor(t, { models: ['fake-model'] });
  const models = lister();
  await models.list({ baseUrl: fake.url, apiKey: 'sk-one' });
  await models.list({ baseUrl: fake.url, apiKey: 'sk-two' });
  assert.equal(listings(fake), 2, 'the key changed');
  await models.list({ baseUrl: fake.url, apiKey: 'sk-two' }, true);
  assert.equal(listings(fake), 3, 'the picker asked afresh');
  await models.list({ baseUrl: fake.url, apiKey: 'sk-two' });
  assert.equal(listings(fake), 3, 'and its answer is kept');
});

test("the CLI's catalog lists once per run; a failure counts as no models and is asked again", async (t) => {
  const fake = await fakeFor(t, { models: ['fake-model', 'vendor/haiku'], modelsUnavailable: 1 });
  const catalog = endpointModelCatalog(new OpenAiModelClient({ baseUrl: fake.url }));
  assert.deepEqual(await catalog.list(new AbortController().signal), []);
  assert.deepEqual(await catalog.list(new AbortController().signal), [{ id: 'fake-model' }, { id: 'vendor/haiku' }]);
  assert.deepEqual(await catalog.list(new AbortController().signal), [{ id: 'fake-model' }, { id: 'vendor/haiku' }]);
  assert.equal(listings(fake), 2);
});
