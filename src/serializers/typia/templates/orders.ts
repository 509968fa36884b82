import typia, { type tags } from 'typia';

/** An integer field (typia checks `Number.isInteger`, as the other validate-class adapters do). */
type Int = number & tags.Type<'int64'>;

/**
 * typia template for the `orders` workload (shapes `list` and `many`): one order as it stands on
 * the wire — `createdAt` is an ISO string (a plain `string`: the validate class checks types, not
 * formats), `status` a union of literals, `notes` nullable. `npm run build` runs
 * `typia generate`, which writes the compiled functions to ../generated/.
 */

/** One order line. */
export interface OrderLine {
  sku: string;
  quantity: Int;
  unitPrice: number;
}

/** The shipping address. */
export interface ShippingAddress {
  street: string;
  city: string;
  postalCode: string;
  country: string;
}

/** One order record on the wire. */
export interface Order {
  id: string;
  customerId: string;
  createdAt: string;
  status: 'pending' | 'paid' | 'shipped' | 'delivered' | 'cancelled';
  lines: OrderLine[];
  total: number;
  shippingAddress: ShippingAddress;
  notes: string | null;
}

/** Record → JSON text (`many`). */
export const stringify = typia.json.createStringify<Order>();
/** Records → JSON text (`list`). */
export const stringifyList = typia.json.createStringify<Order[]>();
/** JSON text → record, type-checked; throws TypeGuardError (`many`). */
export const assertParse = typia.json.createAssertParse<Order>();
/** JSON text → records, type-checked; throws TypeGuardError (`list`). */
export const assertParseList = typia.json.createAssertParse<Order[]>();
