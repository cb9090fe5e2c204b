import { describe, expect, test } from 'vitest';
import { assignNames, baseName, buildDomains, domainFromPath, domainOf, tagGroups } from '../../src/importer/names.js';
import type { Diagnostic, Operation } from '../../src/types.js';

function op(partial: Partial<Operation>): Operation {
  return {
    name: '', operationId: 'x', domain: '', summary: '', description: '', method: 'get', path: '/x', tags: [],
    deprecated: false, destructive: false, readOnly: true, servers: [], security: [],
    inputSchema: { type: 'object', properties: {} }, bindings: [], errors: [], examples: [], executable: true,
    ...partial,
  };
}

describe('domainFromPath', () => {
  test.each([
    ['/v1/customers/{customer}', 'customers'],
    ['/v1/payment_intents/{intent}/confirm', 'payment_intents'],
    ['/api/v2/users', 'users'],
    ['/rest/2.0/Items.json', 'items'],
    ['/{tenant}/orders', 'orders'],
    ['/', 'default'],
  ])('%s -> %s', (path, expected) => {
    expect(domainFromPath(path)).toBe(expected);
  });
});

describe('domainOf', () => {
  test.each([
    [['Code Scanning'], '/repos/x', 'code-scanning'],
    [[], '/v1/invoices', 'invoices'],
    [['\u200b'], '/v1/invoices', 'invoices'],
  ])('tags %j path %s -> %s', (tags, path, expected) => {
    expect(domainOf({ tags, path })).toBe(expected);
  });
});

describe('x-tagGroups', () => {
  const groups = tagGroups({
    'x-tagGroups': [
      { name: 'Billing', tags: ['Invoices', 'Payment Methods'] },
      { name: 'Later group', tags: ['Invoices'] },
      { name: 'Broken' },
      'not a group',
    ],
  });
  test.each([
    [['Invoices'], '/invoices', 'billing'],
    [['Payment Methods', 'Invoices'], '/x', 'billing'],
    [['Users'], '/users', 'users'],
    [[], '/v1/charges', 'charges'],
  ])('tags %j path %s -> %s', (tags, path, expected) => {
    expect(domainOf({ tags, path }, groups)).toBe(expected);
  });
  test('no x-tagGroups: no groups', () => {
    expect(tagGroups({ tags: [{ name: 'a' }] }).size).toBe(0);
  });
});

describe('names', () => {
  test.each([
    [{ operationId: 'issues/create', method: 'post', path: '/repos/{owner}/{repo}/issues' }, 'issues_create'],
    [{ operationId: 'get_/pets/{id}', method: 'get', path: '/pets/{id}' }, 'get_pets_id'],
    [{ operationId: '', method: 'delete', path: '/a/{b}' }, 'delete_a_b'],
  ] as const)('%j -> %s', (input, expected) => {
    expect(baseName(input)).toBe(expected);
  });

  test('collisions are resolved by (path, method), independent of input order', () => {
    const make = (): Operation[] => [
      op({ operationId: 'getThing', path: '/b' }),
      op({ operationId: 'getThing', path: '/a' }),
      op({ operationId: 'getThing_2', path: '/c' }),
    ];
    const one = make();
    const two = make().reverse();
    const d: Diagnostic[] = [];
    assignNames(one, d);
    assignNames(two, []);
    const byPath = (ops: Operation[]): Record<string, string> => Object.fromEntries(ops.map((o) => [o.path, o.name]));
    expect(byPath(one)).toEqual({ '/a': 'getThing', '/b': 'getThing_3', '/c': 'getThing_2' });
    expect(byPath(two)).toEqual(byPath(one));
    expect(d.map((x) => x.code)).toEqual(['DUPLICATE_OPERATION_ID']);
  });
});

describe('long names', () => {
  // GitHub's siblings, 66-70 characters: the end of the id is what tells them apart.
  const repo = 'actions/get-github-actions-default-workflow-permissions-repository';
  const org = 'actions/get-github-actions-default-workflow-permissions-organization';

  test('a long id keeps its start and its last words, cut at word boundaries', () => {
    expect(baseName({ operationId: repo, method: 'get', path: '/r' })).toBe('actions_get-github-actions-default-workflow_repository');
    expect(baseName({ operationId: org, method: 'get', path: '/o' })).toBe('actions_get-github-actions-default-workflow_organization');
    expect(baseName({ operationId: 'orgs/custom-properties-for-repos-create-or-update-organization-definitions', method: 'put', path: '/x' }))
      .toBe('orgs_custom-properties-for-repos-create-or-update_definitions');
  });

  test('camelCase ids are cut between humps', () => {
    const name = baseName({ operationId: 'solutions.bookingBusinesses.bookingBusiness.appointments.CancelTheBookingAppointmentAndNotifyTheCustomer', method: 'post', path: '/x' });
    expect(name).toBe('solutions.bookingBusinesses.bookingBusiness_Customer');
    expect(name.length).toBeLessThanOrEqual(64);
  });

  test('two long ids that still meet after the cut both take a hash, whatever their order', () => {
    const make = (): Operation[] => [
      op({ operationId: `${'word-'.repeat(10)}alpha-filler-ending`, path: '/a' }),
      op({ operationId: `${'word-'.repeat(10)}beta-filler-ending`, path: '/b' }),
      op({ operationId: 'other', path: '/c' }),
    ];
    const one = make();
    const two = make().reverse();
    assignNames(one, []);
    assignNames(two, []);
    const byPath = (ops: Operation[]): Record<string, string> => Object.fromEntries(ops.map((o) => [o.path, o.name]));
    expect(byPath(two)).toEqual(byPath(one));
    const [a, b] = [byPath(one)['/a'] as string, byPath(one)['/b'] as string];
    expect(a).toMatch(/^word-word-.*_[0-9a-f]{8}$/);
    expect(b).toMatch(/^word-word-.*_[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(byPath(one)['/c']).toBe('other');
  });
});

describe('buildDomains', () => {
  test('tag description wins; otherwise one generated from the operations', () => {
    const ops = [
      op({ domain: 'customers', summary: 'Delete a customer', method: 'delete', path: '/v1/customers/{c}' }),
      op({ domain: 'customers', summary: 'List all customers', path: '/v1/customers' }),
      op({ domain: 'issues', summary: 'Create an issue' }),
    ];
    const domains = buildDomains(ops, new Map([['issues', 'Interact with GitHub Issues.']]));
    expect(domains).toEqual([
      { name: 'customers', description: 'Customers: List all customers; Delete a customer', toolCount: 2 },
      { name: 'issues', description: 'Interact with GitHub Issues.', toolCount: 1 },
    ]);
  });
});
