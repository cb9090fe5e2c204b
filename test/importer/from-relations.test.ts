// `from` for a path parameter named as a relation (`/tickets/{parentId}/notes`): the value is an item of the
// collection before it, not the `parentId` field another resource's answer happens to carry (src/importer/sources.ts,
// relationItem). A small spec, imported by the real importer.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import type { Operation } from '../../src/types.js';
import { tempDir } from '../helpers/temp.js';

const ok = (schema: unknown) => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const query = (item: string) => ok({ type: 'object', properties: { items: { type: 'array', items: ref(item) }, pageDetails: { type: 'object', properties: { count: { type: 'integer' } } } } });
const path = (name: string, type = 'integer') => ({ name, in: 'path', required: true, schema: { type } });
const search = { name: 'search', in: 'query', required: true, schema: { type: 'string' } };
const created = { '201': { description: 'created' } };

/** A ticketing API whose children hang under `{parentId}`, attachments that carry a `parentId`, and pictures. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Desk', version: '1' },
  paths: {
    '/v1/Tickets/query': { get: { operationId: 'Tickets_Query', parameters: [search], responses: query('TicketModel') } },
    '/v1/Tickets/{id}': { get: { operationId: 'Tickets_Get', parameters: [path('id')], responses: ok(ref('TicketModel')) } },
    '/v1/Tickets/{parentId}/Notes': {
      get: { operationId: 'TicketNotes_List', parameters: [path('parentId')], responses: query('NoteModel') },
      post: { operationId: 'TicketNotes_Create', parameters: [path('parentId')], responses: created },
    },
    '/v1/Companies/query': { get: { operationId: 'Companies_Query', parameters: [search], responses: query('CompanyModel') } },
    '/v1/Companies/{parentId}/Notes': { post: { operationId: 'CompanyNotes_Create', parameters: [path('parentId')], responses: created } },
    // no list of expenses anywhere: nothing gives an expense's id
    '/v1/Expenses/{parentId}/Items': { post: { operationId: 'ExpenseItems_Create', parameters: [path('parentId')], responses: created } },
    // attachments of any parent: their `parentId` is the attachment's parent, of whatever kind
    '/v1/Attachments/query': { get: { operationId: 'Attachments_Query', parameters: [search], responses: query('AttachmentModel') } },
    '/v1/Documents/query': { get: { operationId: 'Documents_Query', parameters: [search], responses: query('DocumentModel') } },
    // a name one collection uses, given by its own items' field of that name
    '/advisories': { get: { operationId: 'listAdvisories', responses: ok({ type: 'array', items: ref('Advisory') }) } },
    '/advisories/{ghsa_id}': { get: { operationId: 'getAdvisory', parameters: [path('ghsa_id', 'string')], responses: ok(ref('Advisory')) } },
    // a user's pictures, and a user's logos (pictures too, another collection)
    '/users': { get: { operationId: 'listUsers', responses: ok({ type: 'array', items: ref('User') }) } },
    '/users/{user_id}/pictures': { get: { operationId: 'listPictures', parameters: [path('user_id')], responses: ok({ type: 'object', properties: { data: { type: 'array', items: ref('Picture') } } }) } },
    '/users/{user_id}/logos': { get: { operationId: 'listLogos', parameters: [path('user_id')], responses: ok({ type: 'object', properties: { data: { type: 'array', items: ref('Picture') } } }) } },
    '/users/{user_id}/pictures/{portraitset_id}': { delete: { operationId: 'deletePicture', parameters: [path('user_id'), path('portraitset_id')], responses: { '204': { description: 'gone' } } } },
  },
  components: {
    schemas: {
      TicketModel: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, companyID: { type: 'integer' } } },
      CompanyModel: { type: 'object', properties: { id: { type: 'integer' }, companyName: { type: 'string' } } },
      NoteModel: { type: 'object', properties: { id: { type: 'integer' }, ticketID: { type: 'integer' }, text: { type: 'string' } } },
      AttachmentModel: { type: 'object', properties: { id: { type: 'integer' }, parentId: { type: 'integer' }, parentType: { type: 'string' }, title: { type: 'string' } } },
      DocumentModel: { type: 'object', properties: { id: { type: 'integer' }, parentId: { type: 'integer' }, name: { type: 'string' } } },
      Advisory: { type: 'object', properties: { ghsa_id: { type: 'string' }, summary: { type: 'string' } } },
      User: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      Picture: { type: 'object', properties: { id: { type: 'integer' }, link: { type: 'string' } } },
    },
  },
};

let ops: Map<string, Operation>;
beforeAll(async () => {
  const dir = tempDir('from-relations-');
  writeFileSync(join(dir, 'desk.json'), JSON.stringify(SPEC));
  ops = new Map((await importSpec(join(dir, 'desk.json'))).operations.map((o) => [o.operationId, o]));
});
const from = (opId: string, arg: string): string[] | undefined => ops.get(opId)?.paramSources?.[arg];

describe('a relation-named path parameter reads as an item of the collection before it', () => {
  test("a ticket's notes take a ticket's id from the tickets' own query, not from an attachment's parentId", () => {
    expect(from('TicketNotes_Create', 'parentId')).toEqual(['Tickets_Query']);
    expect(from('TicketNotes_List', 'parentId')).toEqual(['Tickets_Query']);
  });

  test("a company's notes take a company's id: the same name, another collection", () => {
    expect(from('CompanyNotes_Create', 'parentId')).toEqual(['Companies_Query']);
  });

  test('a collection nothing lists gives no from, rather than the other resources fields of the same name', () => {
    expect(from('ExpenseItems_Create', 'parentId')).toBeUndefined();
  });

  test('a name only one collection uses still takes its own items field of that name', () => {
    expect(from('getAdvisory', 'ghsa_id')).toEqual(['listAdvisories']);
  });

  test("an item of the collection's kind listed by another collection (a user's logos) is not offered", () => {
    expect(from('deletePicture', 'portraitset_id')).toEqual(['listPictures']);
    expect(from('deletePicture', 'user_id')).toEqual(['listUsers']);
  });
});
