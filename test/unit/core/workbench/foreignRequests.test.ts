// Requests kept by other tools (an .http file, a Postman collection) read as the service's
// requests: names, variables, headers, query lines, folders, switched-off entries; what is not
// kept named without its value; a request that is none of the service's said why.
import * as assert from 'node:assert/strict';
import { foreignAsSaved, foreignFormatOf, readForeignRequests, uncheckedText } from '../../../../src/core/workbench';

const HTTP_FILE = [
  '@base = https://api.example.com',
  '@from = 2026-11-01',
  '',
  '# the first week',
  '# @name activity-first-week',
  'GET {{base}}/v1/human/activities/summaries?start_date={{from}}&end_date=2026-11-07',
  '    &limit=3',
  'Authorization: Bearer {{token}}',
  'Accept: application/json',
  'X-Trace: yes',
  '',
  '### Heart rate of a day',
  '// a comment',
  '{{base}}/v1/human/heart_rate/summaries/2026-11-20 HTTP/1.1',
  '',
  '###',
  '# @name mint',
  'POST {{base}}/v1/admin/token',
  'Content-Type: application/json',
  '',
  '{"type": "client", "client_id": "app", "client_secret": "s3cr3t-in-a-file"}',
  '',
  '### Upload',
  'PUT {{base}}/v2/uploads',
  '',
  '### only comments',
  '# nothing here',
  '',
].join('\r\n');

describe('workbench: requests of other tools', () => {
  it('reads an .http file: blocks, names, variables, query lines, headers and a body', () => {
    assert.equal(foreignFormatOf('requests.http', HTTP_FILE), 'http');
    assert.equal(foreignFormatOf('x.REST', ''), 'http');
    assert.equal(foreignFormatOf('x.json', '{"kind": "health-data-explorer.saved-requests"}'), undefined);
    const read = readForeignRequests('http', HTTP_FILE);
    assert.deepEqual(
      read.map((r) => [r.name, r.read.target ?? r.read.problem]),
      [
        ['activity-first-week', 'GET /v1/human/activities/summaries?start_date=2026-11-01&end_date=2026-11-07&limit=3'],
        ['Heart rate of a day', 'GET /v1/human/heart_rate/summaries/2026-11-20'],
        ['mint', 'POST /v1/admin/token'],
        ['Upload', 'PUT /v2/uploads is not one of the service\'s endpoints.'],
      ],
    );
    assert.deepEqual(read[0].read.notes, ["The request's token is left out: the extension adds its own.", 'Headers left out (the extension sends its own): X-Trace.']);
    assert.equal(read[0].read.origin, 'https://api.example.com');
    assert.deepEqual(read[1].read.notes, []);
    assert.deepEqual(read[2].read.notes, ["The client id and secret in the request are left out: a token is minted with the environment's client id and stored secret."]);
    assert.ok(!JSON.stringify(read).includes('s3cr3t-in-a-file'));
    // A first request without a name is named by what it asks; an unknown variable stays as written.
    const bare = readForeignRequests('http', 'GET {{host}}/v1/human/body_fat/readings?limit={{n}}\n');
    assert.equal(bare[0].name, 'GET {{host}}/v1/human/body_fat/readings?limit={{n}}');
    assert.deepEqual(bare[0].read.draft, { endpoint: 'list', kind: 'bodyFat', params: { limit: '{{n}}' } });
    assert.deepEqual(readForeignRequests('http', '# nothing\n\n###\n'), []);
  });

  it('gives each request of an .http file the line of its method line (where its code lens sits), CRLF, LF or a BOM', () => {
    const lines = HTTP_FILE.split('\r\n');
    const methodLines = readForeignRequests('http', HTTP_FILE).map((r) => r.line);
    assert.deepEqual(methodLines, [5, 13, 17, 23]);
    // Each is the line that starts the request as written, whatever its form (a bare URL too).
    assert.deepEqual(
      methodLines.map((n) => lines[n!]),
      ['GET {{base}}/v1/human/activities/summaries?start_date={{from}}&end_date=2026-11-07', '{{base}}/v1/human/heart_rate/summaries/2026-11-20 HTTP/1.1', 'POST {{base}}/v1/admin/token', 'PUT {{base}}/v2/uploads'],
    );
    assert.deepEqual(readForeignRequests('http', `\uFEFF${HTTP_FILE.replace(/\r\n/g, '\n')}`).map((r) => r.line), methodLines);
    // Indented, after blank lines and `###` at the very top: the line counts the file's own lines.
    assert.deepEqual(readForeignRequests('http', '###\n\n\n  GET /v1/human/activities/summaries\n###\nGET /v1/human/body_fat/readings/latest\n').map((r) => r.line), [3, 5]);
    // A Postman collection has no lines.
    assert.equal(readForeignRequests('postman', JSON.stringify({ info: { schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' }, item: [{ name: 'a', request: 'https://x/v1/human/activities/summaries' }] }))[0].line, undefined);
  });

  it('reads httpYac\'s assertions: `?? status == N` after the request line, headers or body is the status expected; the others are kept, as written, as not checked', () => {
    const text = [
      '### A',
      'GET https://h/v1/human/activities/summaries?limit=2',
      '?? status == 404',
      '  &offset=1',
      '',
      '### B',
      'GET https://h/v1/human/heart_rate/summaries/nope',
      'Accept: application/json',
      '?? status equals 200',
      'X-Trace: yes',
      '',
      '?? duration < 300',
      '### C',
      'POST https://h/v1/admin/token',
      'Content-Type: application/json',
      '',
      '{"type": "client"}',
      '?? status == 201',
      '?? status == 200',
      '### D',
      'GET https://h/v1/human/body_fat',
      '?? status == 999',
      '??',
    ].join('\n');
    const read = readForeignRequests('http', text);
    assert.deepEqual(
      read.map((r) => [r.name, r.read.target, r.expectStatus, r.unchecked, r.line]),
      [
        // A `??` line is no query line: the next `&` line still is.
        ['A', 'GET /v1/human/activities/summaries?limit=2&offset=1', 404, undefined, 1],
        ['B', 'GET /v1/human/heart_rate/summaries/nope', 200, ['?? duration < 300'], 6],
        // The first status assertion is read; a second is named, not checked.
        ['C', 'POST /v1/admin/token', 201, ['?? status == 200'], 13],
        // No status there is: not read as one.
        ['D', 'GET /v1/human/body_fat', undefined, ['?? status == 999', '??'], 20],
      ],
    );
    // The headers after an assertion are still headers.
    assert.deepEqual(read[1].read.notes, ['Headers left out (the extension sends its own): X-Trace.']);
    assert.equal(foreignAsSaved(read[0], 0)?.expectStatus, 404);
    assert.equal(foreignAsSaved(read[3], 3)?.expectStatus, undefined);
    assert.equal(uncheckedText(read[0]), undefined);
    assert.equal(uncheckedText({ unchecked: ['?? a', '?? b', '?? c', '?? d', '?? e'] }), 'Not checked: "?? a", "?? b", "?? c" and 2 more (the assertion read is "?? status == N").');
  });

  it('reads a Postman collection: folders, variables, switched-off headers and parameters, bearer auth, v1 refused', () => {
    const collection = {
      info: { name: 'Health', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json', _postman_id: 'x' },
      variable: [{ key: 'baseUrl', value: 'https://api.example.com' }, { key: 'limit', value: 5 }],
      auth: { type: 'bearer', bearer: [{ key: 'token', value: 'collection-token' }] },
      item: [
        {
          name: 'Activity',
          item: [
            {
              name: 'List',
              request: {
                method: 'GET',
                auth: { type: 'bearer', bearer: [{ key: 'token', value: 'secret-bearer' }] },
                header: [
                  { key: 'Accept', value: 'application/json' },
                  { key: 'X-Off', value: 'no', disabled: true },
                ],
                url: {
                  raw: '{{baseUrl}}/v1/human/activities/summaries?limit={{limit}}&source=fitbit&offset=9',
                  host: ['{{baseUrl}}'],
                  path: ['v1', 'human', 'activities', 'summaries'],
                  query: [
                    { key: 'limit', value: '{{limit}}' },
                    { key: 'source', value: 'fitbit' },
                    { key: 'offset', value: '9', disabled: true },
                  ],
                },
              },
            },
          ],
        },
        { name: 'Latest body fat', request: { method: 'GET', url: { protocol: 'https', host: ['api', 'example', 'com'], path: ['v1', 'human', 'body_fat'] } } },
        { name: 'By string', request: '{{baseUrl}}/v1/human/heart_rate/summaries/abc' },
        {
          name: 'Mint',
          request: { method: 'POST', url: '{{baseUrl}}/v1/admin/token', body: { mode: 'urlencoded', urlencoded: [{ key: 'client_id', value: 'app' }, { key: 'client_secret', value: 'form-secret' }] } },
        },
        { name: 'Delete', request: { method: 'DELETE', url: '{{baseUrl}}/v1/human/heart_rate/summaries/abc' } },
        { name: 'Broken', request: 42 },
      ],
    };
    const text = JSON.stringify(collection);
    assert.equal(foreignFormatOf('health.postman_collection.json', text), 'postman');
    const read = readForeignRequests('postman', text);
    assert.deepEqual(
      read.map((r) => [r.name, r.read.target]),
      [
        ['Activity / List', 'GET /v1/human/activities/summaries?source=fitbit&limit=5'],
        ['Latest body fat', 'GET /v1/human/body_fat'],
        ['By string', 'GET /v1/human/heart_rate/summaries/abc'],
        ['Mint', 'POST /v1/admin/token'],
        ['Delete', 'GET /v1/human/heart_rate/summaries/abc'],
      ],
    );
    assert.deepEqual(read[0].read.notes, ["The request's token is left out: the extension adds its own."]);
    assert.deepEqual(read[3].read.notes, ["The client id and secret in the request are left out: a token is minted with the environment's client id and stored secret."]);
    assert.deepEqual(read[4].read.notes, ["The endpoint is a GET: the request's DELETE is not kept."]);
    assert.ok(!/secret-bearer|form-secret|collection-token/.test(JSON.stringify(read)));
    assert.throws(() => readForeignRequests('postman', '{"info": {"schema": "https://schema.getpostman.com/json/collection/v1.0.0/collection.json"}, "requests": []}'), /format v1: export it from Postman as Collection v2\.1/);
    assert.throws(() => readForeignRequests('postman', '{"info": {}}'), /no Postman collection: it has no "item" list/);
    assert.throws(() => readForeignRequests('postman', '{not json'), /The file is not JSON/);
    // Folders nested deeper than any collection has, and more requests than Saved could hold, are not read.
    let deep: Record<string, unknown> = { name: 'leaf', request: 'https://h/v1/human/body_fat' };
    for (let i = 0; i < 1000; i++) deep = { name: `f${i}`, item: [deep] };
    assert.deepEqual(readForeignRequests('postman', JSON.stringify({ item: [deep] })), []);
    const many = { item: Array.from({ length: 2000 }, (_, i) => ({ name: `r${i}`, request: 'https://h/v1/human/body_fat' })) };
    assert.equal(readForeignRequests('postman', JSON.stringify(many)).length, 500);
  });
});
