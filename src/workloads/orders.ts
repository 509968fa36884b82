import { fakerEn } from './faker.js';
import type { Workload } from './types.js';
import type { SchemaNode } from './schema.js';
import { deepFreeze } from '../case/frozen.js';

/**
 * `orders`: a typical e-commerce API payload, a page of orders as an order service returns them:
 * ids, an ISO 8601 creation time (a `Date` in the typed model), a status enum, 1–5 order lines,
 * money with two decimals, a nested shipping address and a nullable free-text note (null in about
 * 70% of orders). It mixes strings, integers, floats, enums, nesting and nulls, which the flat
 * all-string `users` records do not.
 *
 * Units: `size` is the number of order records (100, 1,000 or 10,000). Shapes: `list` and `many`.
 * The wire value is camelCase and compact; `createdAt` is a string on the wire and becomes a Date
 * for `transform`-class deserializers (see {@link toModel}).
 */

/** Order statuses, in lifecycle order. */
export const ORDER_STATUSES = deepFreeze(['pending', 'paid', 'shipped', 'delivered', 'cancelled'] as const);

/** Schema of one order record. */
export const orderSchema: SchemaNode = deepFreeze({
  type: 'object',
  properties: {
    id: { type: 'string', format: 'uuid' },
    customerId: { type: 'string', format: 'uuid' },
    createdAt: { type: 'string', format: 'date-time', asDate: true },
    status: { type: 'enum', values: ORDER_STATUSES },
    lines: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          sku: { type: 'string' },
          quantity: { type: 'number', integer: true },
          unitPrice: { type: 'number' },
        },
      },
    },
    total: { type: 'number' },
    shippingAddress: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
        postalCode: { type: 'string' },
        country: { type: 'string' },
      },
    },
    notes: { type: 'string', nullable: true },
  },
});

const NOTES = [
  'Leave the parcel at the back door.',
  'Please ring the bell twice.',
  'Gift wrap, no invoice in the box.',
  'Deliver after 5 pm on weekdays.',
  'Call on arrival, the intercom is broken.',
  'Fragile: handle with care.',
];

const FROM = '2025-01-01T00:00:00.000Z';
const TO = '2025-12-31T23:59:59.999Z';

/** The wire record for an order with `createdAt` as a Date: the typed model of one order. */
export function toModel(wireRecord: unknown): unknown {
  const order = wireRecord as Record<string, unknown>;
  return { ...order, createdAt: new Date(order.createdAt as string) };
}

/** `count` orders for `seed`; totals are computed in integer cents, so they are exact to the cent. */
export function generateOrders(count: number, seed: number): unknown[] {
  const f = fakerEn();
  f.seed(seed);
  const orders: unknown[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const id = f.string.uuid();
    const customerId = f.string.uuid();
    const createdAt = f.date.between({ from: FROM, to: TO }).toISOString();
    const status = f.helpers.arrayElement(ORDER_STATUSES);
    const lineCount = f.number.int({ min: 1, max: 5 });
    const lines = [];
    let cents = 0;
    for (let j = 0; j < lineCount; j++) {
      const quantity = f.number.int({ min: 1, max: 10 });
      const priceCents = f.number.int({ min: 99, max: 49_999 });
      cents += quantity * priceCents;
      lines.push({
        sku: `SKU-${f.string.alphanumeric({ length: 8, casing: 'upper' })}`,
        quantity,
        unitPrice: priceCents / 100,
      });
    }
    orders[i] = {
      id,
      customerId,
      createdAt,
      status,
      lines,
      total: cents / 100,
      shippingAddress: {
        street: f.location.streetAddress(),
        city: f.location.city(),
        postalCode: f.location.zipCode(),
        country: f.location.country(),
      },
      notes: f.datatype.boolean({ probability: 0.3 }) ? f.helpers.arrayElement(NOTES) : null,
    };
  }
  return orders;
}

/** The `orders` workload: `size` e-commerce orders; build() returns the array of wire records. */
const workload: Workload = {
  id: 'orders',
  description:
    'E-commerce orders: uuids, ISO dates (Date in the model), enum status, 1-5 lines, 2-decimal money, address, nullable notes',
  sizes: [100, 1000, 10000],
  defaultSizes: [100],
  shapes: ['list', 'many'],
  schema: orderSchema,
  build(size, seed) {
    return generateOrders(size, seed);
  },
  toModel,
};

export default deepFreeze(workload);
