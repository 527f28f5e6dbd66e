// The core's side of MCP resources (src/agent/resources.ts): when the tools are offered, how a listing
// and a read are worded for the model (a blob named, never inlined; a long listing capped with a count),
// and the answers to bad calls, over an in-memory resource host.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LISTED_RESOURCES_PER_SERVER,
  answerResourceCall,
  contentsText,
  listingText,
  resourceToolSpecs,
  type ResourceContent,
  type ResourceHost,
  type ResourceListing,
} from '../../../src/agent/resources';

class InMemoryResourceHost implements ResourceHost {
  reads: string[] = [];
  constructor(
    private readonly listing: ResourceListing,
    private readonly contents: Record<string, ResourceContent[]>,
  ) {}
  servers(): string[] {
    return [...new Set([...this.listing.resources.map((r) => r.server), ...this.listing.errors.map((e) => e.server)])];
  }
  list(): Promise<ResourceListing> {
    return Promise.resolve(this.listing);
  }
  read(server: string, uri: string): Promise<ResourceContent[]> {
    this.reads.push(`${server} ${uri}`);
    const found = this.contents[uri];
    return found === undefined ? Promise.reject(new Error(`no ${uri} on ${server}`)) : Promise.resolve(found);
  }
}

const listing: ResourceListing = {
  resources: [
    { server: 'docs', uri: 'file:///guide.md', name: 'guide', title: 'The guide', mimeType: 'text/markdown', size: 120, description: 'How to\n  start' },
    { server: 'db', uri: 'db://schema', name: 'schema' },
  ],
  templates: [{ server: 'db', uriTemplate: 'db://table/{name}', name: 'table', description: 'One table' }],
  errors: [{ server: 'broken', message: 'tools/list timed out' }],
};
const host = new InMemoryResourceHost(listing, {
  'file:///guide.md': [{ uri: 'file:///guide.md', mimeType: 'text/markdown', text: '# Guide\nhello' }],
  'db://logo': [{ uri: 'db://logo', mimeType: 'image/png', blobBytes: 2048, blob: 'AAAA' }],
});
const signal = new AbortController().signal;
const ask = (name: string, args: Record<string, unknown>) => answerResourceCall({ name, arguments: JSON.stringify(args) }, host, signal);

describe('MCP resources in the core', () => {
  it('the two tools are offered only when some server has resources', () => {
    assert.deepEqual(resourceToolSpecs([]), []);
    assert.deepEqual(resourceToolSpecs(['docs']).map((s) => s.name), ['sprout__list_resources', 'sprout__read_resource']);
  });

  it('a listing names each resource, template and failure per server, on one line each', () => {
    const text = listingText(listing, ['docs', 'db', 'broken']);
    assert.equal(
      text,
      [
        'Server "docs":',
        '- file:///guide.md (The guide; text/markdown, 120 bytes): How to start',
        '',
        'Server "db":',
        '- db://schema (schema)',
        '- template db://table/{name} (table): One table',
        '',
        'Server "broken":',
        '  (could not be listed: tools/list timed out)',
      ].join('\n'),
    );
  });

  it('a long listing is capped and says how many were left out', () => {
    const many: ResourceListing = { resources: Array.from({ length: LISTED_RESOURCES_PER_SERVER + 5 }, (_, i) => ({ server: 's', uri: `x://${i}`, name: `n${i}` })), templates: [], errors: [] };
    const text = listingText(many, ['s']);
    assert.equal(text.split('\n').filter((l) => l.startsWith('- x://')).length, LISTED_RESOURCES_PER_SERVER);
    assert.match(text, /\[5 more resources not listed\]$/);
  });

  it('text is given whole; a blob is named by type and size, its bytes never inlined', () => {
    assert.equal(contentsText('docs', 'file:///guide.md', [{ uri: 'file:///guide.md', text: 'a' }]), 'Resource file:///guide.md of server "docs":\na');
    const blob = contentsText('db', 'db://logo', [{ uri: 'db://logo', mimeType: 'image/png', blobBytes: 2048, blob: 'AAAA' }]);
    assert.equal(blob, 'Resource db://logo (image/png) of server "db": binary, 2048 bytes, not shown.');
    assert.match(contentsText('db', 'db://empty', []), /is empty/);
  });

  it('calls are answered from the host; bad calls get errors that say what to give', async () => {
    assert.deepEqual(await ask('sprout__read_resource', { server: 'docs', uri: 'file:///guide.md' }), { isError: false, text: 'Resource file:///guide.md (text/markdown) of server "docs":\n# Guide\nhello' });
    assert.match((await ask('sprout__list_resources', { server: 'db' }))?.text ?? '', /^Server "db":\n- db:\/\/schema/);
    assert.deepEqual(await ask('sprout__read_resource', { server: 'docs' }), { isError: true, text: 'sprout__read_resource: give "server" and "uri" (list them with sprout__list_resources).' });
    assert.deepEqual(await ask('sprout__read_resource', { server: 'nope', uri: 'x' }), { isError: true, text: 'sprout__read_resource: no server "nope" with resources. Servers with resources: "docs", "db", "broken".' });
    assert.deepEqual(await ask('sprout__read_resource', { server: 'db', uri: 'db://missing' }), { isError: true, text: 'sprout__read_resource: no db://missing on db' });
    assert.equal(await ask('other__tool', {}), undefined);
    assert.equal(await answerResourceCall({ name: 'sprout__list_resources', arguments: '{}' }, undefined, signal), undefined);
  });
});
