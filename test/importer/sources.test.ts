// `from` (Operation.paramSources): for each path or query parameter that names an entity, the operations whose
// responses give its value, best first — from links, else matched in response schemas (src/importer/sources.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import { entityOf, headOf } from '../../src/importer/entities.js';
import type { Operation } from '../../src/types.js';
import { tempDir } from '../helpers/temp.js';

const ok = (schema: unknown) => ({ '200': { description: 'OK', content: { 'application/json': { schema } } } });
const list = (ref: string) => ({ type: 'array', items: { $ref: `#/components/schemas/${ref}` } });
const path = (name: string, type = 'integer') => ({ name, in: 'path', required: true, schema: { type } });

/** A small shop: widgets (a collection, a search, a nested list), gadgets by bare {id}, people known by shape, links. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/widgets': { get: { operationId: 'listWidgets', responses: ok(list('Widget')) } },
    '/search/widgets': { get: { operationId: 'searchWidgets', parameters: [{ name: 'q', in: 'query', required: true, schema: { type: 'string' } }], responses: ok({ type: 'object', properties: { results: list('WidgetSummary') } }) } },
    '/widgets/{widget_id}': { get: { operationId: 'getWidget', parameters: [path('widget_id')], responses: ok({ $ref: '#/components/schemas/Widget' }) } },
    '/widgets/{widget_id}/related': { get: { operationId: 'relatedWidgets', parameters: [path('widget_id')], responses: ok(list('Widget')) } },
    '/widgets/{widget_id}/assets': { get: { operationId: 'listWidgetAssets', parameters: [path('widget_id')], responses: ok(list('widget-asset')) } },
    '/widgets/{widget_id}/assets/{asset_id}': { delete: { operationId: 'deleteWidgetAsset', parameters: [path('widget_id'), path('asset_id')], responses: { '204': { description: 'gone' } } } },
    '/carts': { get: { operationId: 'listCarts', responses: ok(list('Cart')) } },
    '/orders/{order_id}': { get: { operationId: 'getOrder', parameters: [path('order_id', 'string')], responses: ok({ type: 'object', properties: { id: { type: 'string' } } }) } },
    '/gadgets': { get: { operationId: 'listGadgets', responses: ok({ type: 'object', properties: { data: list('Gadget') } }) } },
    '/gadgets/{id}': { get: { operationId: 'getGadget', parameters: [path('id', 'string')], responses: ok({ $ref: '#/components/schemas/Gadget' }) } },
    '/people/{person_id}': { get: { operationId: 'getPerson', parameters: [path('person_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, birthday: { type: 'string' }, biography: { type: 'string' } } }) } },
    '/shows/{show_id}/cast': {
      get: {
        operationId: 'listShowCast',
        parameters: [path('show_id')],
        responses: ok({ type: 'object', properties: { id: { type: 'integer' }, cast: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, birthday: { type: 'string' }, biography: { type: 'string' }, character: { type: 'string' } } } } } }),
      },
    },
    '/shows': {
      get: {
        operationId: 'discoverShows',
        parameters: [
          { name: 'with_people', in: 'query', schema: { type: 'string' }, description: 'A comma separated list of person IDs.' },
          { name: 'page', in: 'query', schema: { type: 'integer' } },
        ],
        responses: ok({ type: 'object', properties: { results: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } } } }),
      },
    },
    '/shows/{show_id}': { get: { operationId: 'getShow', parameters: [path('show_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } }) } },
    '/groups': { get: { operationId: 'listGroups', responses: ok({ type: 'object', properties: { groups: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } }) } },
    '/groups/{id}': { get: { operationId: 'getGroup', parameters: [path('id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' } } }) } },
    '/tag_groups': { get: { operationId: 'listTagGroups', responses: ok({ type: 'object', properties: { tag_groups: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } }) } },
    '/tag_groups/{id}': { get: { operationId: 'getTagGroup', parameters: [path('id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' } } }) } },
    '/db/mysql/instances': { get: { operationId: 'listMysql', responses: ok({ type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } }) } },
    '/db/mongo/instances': { get: { operationId: 'listMongo', responses: ok({ type: 'object', properties: { data: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' } } } } } }) } },
    '/db/mysql/instances/{instanceId}': { get: { operationId: 'getMysql', parameters: [path('instanceId')], responses: ok({ type: 'object', properties: { id: { type: 'integer' } } }) } },
    '/labels': {
      post: {
        operationId: 'createLabel',
        responses: {
          '201': {
            description: 'Created',
            content: { 'application/json': { schema: { type: 'object', properties: { code: { type: 'string' } } } } },
            links: { GetLabel: { operationId: 'getLabel', parameters: { label_code: '$response.body#/code' } } },
          },
        },
      },
    },
    '/labels/{label_code}': { get: { operationId: 'getLabel', parameters: [path('label_code', 'string')], responses: ok({ type: 'object', properties: { code: { type: 'string' } } }) } },
  },
  components: {
    schemas: {
      Widget: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, owner: { $ref: '#/components/schemas/simple-person' } } },
      WidgetSummary: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
      'widget-asset': { type: 'object', properties: { id: { type: 'integer' }, widget_id: { type: 'integer' } } },
      'simple-person': { type: 'object', properties: { id: { type: 'integer' }, login: { type: 'string' } } },
      Cart: { type: 'object', properties: { id: { type: 'string' }, order_id: { type: 'string' }, widget_id: { type: 'string' } } },
      Gadget: { type: 'object', properties: { id: { type: 'string' }, label: { type: 'string' } } },
    },
  },
};

let dir: string;
let ops: Map<string, Operation>;
beforeAll(async () => {
  dir = tempDir('sources-');
  writeFileSync(join(dir, 'shop.json'), JSON.stringify(SPEC));
  ops = new Map((await importSpec(join(dir, 'shop.json'))).operations.map((o) => [o.operationId, o]));
});
const from = (opId: string, arg: string): string[] | undefined => ops.get(opId)?.paramSources?.[arg];

describe('which parameters name an entity', () => {
  test.each([
    ['/widgets/{widget_id}', 'widget_id', 'path', { resource: ['widget'], attribute: 'id' }],
    ['/repos/{o}/{r}/issues/{issue_number}', 'issue_number', 'path', { resource: ['issue'], attribute: 'number' }],
    ['/check-suites/{checkSuiteId}', 'checkSuiteId', 'path', { resource: ['check', 'suite'], attribute: 'id' }],
    ['/albums/{id}', 'id', 'path', { resource: ['album'], attribute: 'id' }],
    ['/tracks', 'ids', 'query', { resource: ['track'], attribute: 'id' }],
    ['/people/{person_id}', 'person_id', 'path', { resource: ['person'], attribute: 'id' }],
  ])('%s %s', (p, name, location, expected) => {
    expect(entityOf({ path: p }, name, location, { type: 'integer' }, undefined)).toMatchObject(expected);
  });

  test.each([['page'], ['per_page'], ['q'], ['owner'], ['sort']])('%s names no entity', (name) => {
    expect(entityOf({ path: '/things' }, name, 'query', { type: 'string' }, undefined)).toBeUndefined();
  });

  test.each([
    [['movie', 'list', 'object'], 'movie'],
    [['movie', 'list', 'result', 'with', 'rating', 'object'], 'movie'],
    [['release', 'asset'], 'asset'],
    [['private', 'user', 'object'], 'user'],
    [['pull', 'request', 'simple'], 'request'],
    [['people'], 'person'],
  ])('head noun of %j is %s', (words, head) => {
    expect(headOf(words)).toBe(head);
  });
});

describe('from, best first', () => {
  test("the parameter's own collection first, then a search, never an operation that needs the same entity", () => {
    const widget = from('getWidget', 'widget_id');
    expect(widget?.[0]).toBe('listWidgets');
    expect(widget).toContain('searchWidgets');
    expect(widget).not.toContain('relatedWidgets'); // needs a widget_id itself
    expect(widget).not.toContain('getWidget');
  });

  test('an object named for another resource is not this one (head noun: widget-asset ids are not widget ids)', () => {
    expect(from('deleteWidgetAsset', 'asset_id')).toEqual(['listWidgetAssets']);
    expect(from('getWidget', 'widget_id')).not.toContain('listWidgetAssets');
  });

  test('a field named like the parameter gives it; a string field never gives an integer parameter', () => {
    expect(from('getOrder', 'order_id')).toEqual(['listCarts']);
    // Cart.widget_id is a string; widget_id is an integer
    expect(from('getWidget', 'widget_id')).not.toContain('listCarts');
  });

  test('a bare {id} is the resource its path segment names', () => {
    expect(from('getGadget', 'id')).toEqual(['listGadgets']);
  });

  test('an anonymous object is known by its shape (cast items with the fields only people have)', () => {
    expect(from('getPerson', 'person_id')).toContain('listShowCast');
  });

  test("a parameter whose name says nothing is read from its description when it names the API's resource", () => {
    expect(from('discoverShows', 'with_people')).toContain('listShowCast');
    expect(from('discoverShows', 'page')).toBeUndefined();
  });

  test('a compound the API has as a resource of its own is not its head (tag groups are not groups)', () => {
    expect(from('getGroup', 'id')).toEqual(['listGroups']);
    expect(from('getTagGroup', 'id')).toEqual(['listTagGroups']);
  });

  test('a collection of the same name elsewhere is another kind of thing (mongo instances for a mysql instance)', () => {
    expect(from('getMysql', 'instanceId')).toEqual(['listMysql']);
  });

  test('paging and fixed choices are not entities', () => {
    expect(entityOf({ path: '/things' }, 'page_number', 'query', { type: 'integer' }, new Set(['thing']))).toBeUndefined();
    expect(entityOf({ path: '/things' }, 'include_fields', 'query', { type: 'string', enum: ['thing_id'], description: 'Add the thing ID to each item.' }, new Set(['thing']))).toBeUndefined();
    expect(entityOf({ path: '/things' }, 'with_things', 'query', { type: 'string', description: 'A comma separated list of thing IDs.' }, new Set(['thing']))).toMatchObject({ resource: ['thing'] });
  });

  test('links: the spec says outright which response gives a parameter', () => {
    expect(from('getLabel', 'label_code')).toEqual(['createLabel']);
  });

  test('at most three, and none for parameters no response gives', () => {
    for (const op of ops.values()) for (const list of Object.values(op.paramSources ?? {})) expect(list.length).toBeLessThanOrEqual(3);
    expect(from('getShow', 'show_id')).toEqual(['discoverShows']);
    expect(ops.get('listWidgets')?.paramSources).toBeUndefined();
  });
});

describe('from offers more than one way in', () => {
  const films = (props: Record<string, unknown> = {}) => ({ type: 'object', properties: { results: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, ...props } } } } });
  const q = { name: 'query', in: 'query', required: true, schema: { type: 'string' } };
  /** Films found by a search and three top-level lists, by a person's credits, and deep inside a note's subject. */
  const FILMS = {
    openapi: '3.0.3',
    info: { title: 'Films', version: '1' },
    paths: {
      '/search/film': { get: { operationId: 'searchFilms', parameters: [q], responses: ok(films()) } },
      '/film/popular': { get: { operationId: 'popularFilms', responses: ok(films()) } },
      '/film/top_rated': { get: { operationId: 'topRatedFilms', responses: ok(films()) } },
      '/film/upcoming': { get: { operationId: 'upcomingFilms', responses: ok(films()) } },
      '/film/{film_id}': { get: { operationId: 'getFilm', parameters: [path('film_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } }) } },
      '/film/{film_id}/credits': { get: { operationId: 'getFilmCredits', parameters: [path('film_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' } } }) } },
      '/person/{person_id}': { get: { operationId: 'getPerson', parameters: [path('person_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } }) } },
      '/person/{person_id}/film_credits': {
        get: { operationId: 'getPersonFilmCredits', parameters: [path('person_id')], responses: ok({ type: 'object', properties: { id: { type: 'integer' }, cast: { type: 'array', items: { $ref: '#/components/schemas/Film' } } } }) },
      },
      '/notes/{note_id}': {
        get: {
          operationId: 'getNote', parameters: [path('note_id')],
          responses: ok({ type: 'object', properties: { id: { type: 'integer' }, subject: { type: 'object', properties: { id: { type: 'integer' }, owner: { type: 'object', properties: { id: { type: 'integer' }, films: { type: 'array', items: { $ref: '#/components/schemas/Film' } } } } } } } }),
        },
      },
    },
    components: { schemas: { Film: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } } } } },
  };
  let filmOps: Map<string, Operation>;
  beforeAll(async () => {
    writeFileSync(join(dir, 'films.json'), JSON.stringify(FILMS));
    filmOps = new Map((await importSpec(join(dir, 'films.json'))).operations.map((o) => [o.operationId, o]));
  });

  test('when the best three are top-level lists of the same things, the third place goes to another entity\'s list', () => {
    const sources = filmOps.get('getFilmCredits')?.paramSources?.['film_id'];
    expect(sources).toHaveLength(3);
    expect(sources?.[0]).toBe('searchFilms');
    // a person's credits give films: another way in than a third top-level list
    expect(sources?.[2]).toBe('getPersonFilmCredits');
  });

  test('a value met deep inside another thing\'s answer is not offered as that way in', () => {
    expect(filmOps.get('getFilmCredits')?.paramSources?.['film_id']).not.toContain('getNote');
  });
});

describe('from when a parameter is named like its collection, and whose {id} a producer needs', () => {
  const data = (ref: string) => ({ type: 'object', properties: { data: list(ref) } });
  const obj = (ref: string) => ({ $ref: `#/components/schemas/${ref}` });
  const str = (name: string) => path(name, 'string');
  /** Stripe's convention (`/customers/{customer}`, `/fees/{id}/refunds`) beside GitHub's (`/orgs/{org}` is a login). */
  const PAY = {
    openapi: '3.0.3',
    info: { title: 'Pay', version: '1' },
    paths: {
      '/customers': { get: { operationId: 'listCustomers', responses: ok(data('customer')) } },
      '/customers/{customer}': { get: { operationId: 'getCustomer', parameters: [str('customer')], responses: ok(obj('customer')) } },
      '/orgs/{org}': { get: { operationId: 'getOrg', parameters: [str('org')], responses: ok(obj('org')) } },
      '/events': { get: { operationId: 'listEvents', responses: ok(data('event')) } },
      '/fees': { get: { operationId: 'listFees', responses: ok(data('fee')) } },
      '/fees/{id}/refunds': { get: { operationId: 'listFeeRefunds', parameters: [str('id')], responses: ok(data('fee_refund')) } },
      '/fees/{fee}/refunds/{id}': { get: { operationId: 'getFeeRefund', parameters: [str('fee'), str('id')], responses: ok(obj('fee_refund')) } },
      '/refunds': { get: { operationId: 'listRefunds', responses: ok(data('refund')) } },
      '/transfers': { get: { operationId: 'listTransfers', responses: ok(data('transfer')) } },
      '/transfers/{transfer}': { get: { operationId: 'getTransfer', parameters: [str('transfer')], responses: ok(obj('transfer')) } },
      '/transfers/{id}/reversals': { get: { operationId: 'listReversals', parameters: [str('id')], responses: ok(data('reversal')) } },
    },
    components: {
      schemas: {
        customer: { type: 'object', properties: { id: { type: 'string' }, email: { type: 'string' } } },
        org: { type: 'object', properties: { id: { type: 'integer' }, login: { type: 'string' } } },
        event: { type: 'object', properties: { id: { type: 'string' }, org: obj('org') } },
        fee: { type: 'object', properties: { id: { type: 'string' } } },
        fee_refund: { type: 'object', properties: { id: { type: 'string' }, fee: { type: 'string' } } },
        refund: { type: 'object', properties: { id: { type: 'string' } } },
        transfer: { type: 'object', properties: { id: { type: 'string' } } },
        reversal: { type: 'object', properties: { id: { type: 'string' }, transfer: { type: 'string' } } },
      },
    },
  };
  let pay: Map<string, Operation>;
  beforeAll(async () => {
    writeFileSync(join(dir, 'pay.json'), JSON.stringify(PAY));
    pay = new Map((await importSpec(join(dir, 'pay.json'))).operations.map((o) => [o.operationId, o]));
  });
  const payFrom = (opId: string, arg: string): string[] | undefined => pay.get(opId)?.paramSources?.[arg];

  test("{customer} after /customers is a customer's id, when the collection's own list shows its items' ids", () => {
    expect(payFrom('getCustomer', 'customer')?.[0]).toBe('listCustomers');
  });

  test('{org} after /orgs, with no list of orgs to confirm it, is left alone (a login, not the id events carry)', () => {
    expect(payFrom('getOrg', 'org')).toBeUndefined();
  });

  test("a producer whose bare {id} is another thing's id still gives this {id} (a fee's refunds for a fee refund)", () => {
    expect(payFrom('getFeeRefund', 'id')?.[0]).toBe('listFeeRefunds');
  });

  test('a producer that takes the same value at the same place of the path, under another name, is no way in', () => {
    expect(payFrom('listReversals', 'id')).toEqual(['listTransfers']);
  });
});

describe('from when objects name themselves by their address (uri), not an id', () => {
  const video = {
    type: 'object',
    properties: {
      uri: { type: 'string' }, name: { type: 'string' },
      metadata: { type: 'object', properties: { connections: { type: 'object', properties: { comments: { type: 'object', properties: { uri: { type: 'string' }, total: { type: 'integer' } } } } } } },
    },
  };
  /** Vimeo's convention: `"uri": "/videos/123"`; a video mentions its comments' collection by its uri too. */
  const CLIPS = {
    openapi: '3.0.3',
    info: { title: 'Clips', version: '1' },
    paths: {
      '/videos': { get: { operationId: 'listVideos', responses: ok({ type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/video' } } } }) } },
      '/videos/{video_id}': { get: { operationId: 'getVideo', parameters: [path('video_id')], responses: ok({ $ref: '#/components/schemas/video' }) } },
      '/videos/{video_id}/comments': { get: { operationId: 'listComments', parameters: [path('video_id')], responses: ok({ type: 'object', properties: { data: { type: 'array', items: { $ref: '#/components/schemas/comment' } } } }) } },
      '/videos/{video_id}/comments/{comment_id}': { get: { operationId: 'getComment', parameters: [path('video_id'), path('comment_id')], responses: ok({ $ref: '#/components/schemas/comment' }) } },
    },
    components: { schemas: { video, comment: { type: 'object', properties: { uri: { type: 'string' }, text: { type: 'string' } } } } },
  };
  let clips: Map<string, Operation>;
  beforeAll(async () => {
    writeFileSync(join(dir, 'clips.json'), JSON.stringify(CLIPS));
    clips = new Map((await importSpec(join(dir, 'clips.json'))).operations.map((o) => [o.operationId, o]));
  });

  test("a list of the resource's objects gives their ids through their uri", () => {
    expect(clips.get('getVideo')?.paramSources?.video_id).toEqual(['listVideos']);
  });

  test('a uri an object mentions (a video\'s comments collection) is not one comment', () => {
    expect(clips.get('getComment')?.paramSources?.comment_id).toEqual(['listComments']);
  });
});
