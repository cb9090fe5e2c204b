// Registries with the names that broke the explorer's layout in the audit, written by the real importer: Microsoft
// Graph's dotted camelCase operation names and long domain slugs (`solutions.bookingBusinesses.bookingBusiness.
// appointment_c3ff5323`, a `from` column of such names through response links), and Stripe's camelCase names with
// unbroken lower-case domains (`customersubscriptionschedulephases…`). As many domains as asked for, so a test can
// also weigh a page of a server with hundreds of them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { importSpec, writeRegistry } from '../../src/importer/index.js';

const pad = (i: number): string => String(i).padStart(3, '0');

/** Graph-like: per domain, a list whose response links to a cancel operation (its `from` column). */
function graphLike(domains: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < domains; i++) {
    const tag = `solutions${pad(i)}.bookingBusinesses.bookingBusiness.calendarViewAppointments`;
    const cancelId = `solutions.bookingBusinesses.bookingBusiness.appointments.bookingAppointment.CancelTheBookingAppointmentAndNotifyTheCustomer${pad(i)}`;
    const business = { name: 'bookingBusiness-id', in: 'path', required: true, schema: { type: 'string' } };
    paths[`/solutions/bookingBusinesses${pad(i)}/{bookingBusiness-id}/appointments`] = {
      get: {
        tags: [tag],
        operationId: `solutions.bookingBusinesses.bookingBusiness.ListTheAppointmentsOfTheCalendarView${pad(i)}`,
        summary: `List the booking appointments of calendar view ${i}`,
        parameters: [business, { name: '$expandRelationshipsOfTheAppointmentCustomers', in: 'query', schema: { type: 'string' } }],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'object', properties: { value: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } } } },
            links: { cancel: { operationId: cancelId, parameters: { 'bookingAppointment-id': '$response.body#/value/0/id', 'bookingBusiness-id': '$request.path.bookingBusiness-id' } } },
          },
        },
      },
    };
    paths[`/solutions/bookingBusinesses${pad(i)}/{bookingBusiness-id}/appointments/{bookingAppointment-id}/cancel`] = {
      post: {
        tags: [tag],
        operationId: cancelId,
        summary: `Cancel booking appointment ${i}`,
        parameters: [business, { name: 'bookingAppointment-id', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { type: 'object', required: ['cancellationMessageForTheCustomerAndTheStaffMembers'], properties: { cancellationMessageForTheCustomerAndTheStaffMembers: { type: 'string' } } },
            },
          },
        },
        responses: { '204': { description: 'cancelled' } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Microsoft Graph (long names)', version: '1.0' }, servers: [{ url: 'https://graph.example.com/v1.0' }], paths };
}

/** Stripe-like: camelCase operation names, one long lower-case word per domain. */
function stripeLike(domains: number): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (let i = 0; i < domains; i++) {
    const tag = `customerSubscriptionSchedulePhasesItems${pad(i)}`;
    paths[`/v1/customers${pad(i)}/{customer}/subscriptions/{subscription_exposed_id}`] = {
      post: {
        tags: [tag],
        operationId: `PostCustomersCustomerSubscriptionsSubscriptionExposedId${pad(i)}`,
        summary: `Update a customer's subscription ${i}`,
        parameters: [
          { name: 'customer', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'subscription_exposed_id', in: 'path', required: true, schema: { type: 'string' } },
        ],
        responses: { '200': { description: 'ok' } },
      },
    };
  }
  return { openapi: '3.0.3', info: { title: 'Stripe (long names)', version: '1.0' }, servers: [{ url: 'https://api.example.com' }], paths };
}

/** Imports a Graph-like (`msgraph`) and a Stripe-like (`stripe`) catalog into `<dir>/reg`; returns their folders. */
export async function longNameRegistries(dir: string, domains: { msgraph: number; stripe: number }): Promise<string[]> {
  const out: string[] = [];
  for (const [name, spec] of [
    ['msgraph', graphLike(domains.msgraph)],
    ['stripe', stripeLike(domains.stripe)],
  ] as const) {
    const file = join(dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(spec));
    writeRegistry(await importSpec(file, { name }), join(dir, 'reg'));
    out.push(join(dir, 'reg', name));
  }
  return out;
}
