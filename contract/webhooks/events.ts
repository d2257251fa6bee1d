import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { EVENT_NAMES, type EventName } from '../common/events.js';
import { DateSchema, TimestampSchema } from '../common/schemas.js';
import { BillPaymentSchema } from '../finance/bills.js';
import { CreditNoteSchema } from '../general/credit-notes.js';
import { CustomerSchema } from '../general/customers.js';
import { InvoiceSchema, PaymentSchema } from '../general/invoices.js';
import { ProductSchema } from '../general/products.js';
import { QuoteSchema } from '../general/quotes.js';
import { EmployeeSchema } from '../hr/employees.js';
import { LeaveSchema } from '../hr/leaves.js';
import { MemberSchema } from '../loyalty/members.js';
import { RedemptionSchema } from '../loyalty/redemptions.js';
import { ReminderSchema } from '../loyalty/reminders.js';
import { TierSchema } from '../loyalty/tiers.js';
import { TransactionSchema } from '../loyalty/transactions.js';

/*
 * What a webhook receives (docs/decisions.md D94, D228, docs/webhooks.md): the envelope
 * `{event, data, timestamp, deliveryId, occurredAt}`, and each event's `data`. A `data` that is a
 * resource is that resource exactly as its own detail endpoint serialises it, so its schema is the
 * resource's own (same title, so the same OpenAPI component); the loyalty events carry objects of
 * their own. None of these schemas is used by a route: the OpenAPI document lists them as its
 * webhooks.
 *
 * Each schema's type is an interface, so that declaration files (the SDK's) name it rather than
 * spell it out wherever it is used.
 */

type CustomerZod = typeof CustomerSchema;
export interface CustomerEventDataSchemaType extends CustomerZod {}
/** `customer.created`, `customer.updated`, `customer.deleted` (as it was): `GET /v1/customers/:id`. */
export const CustomerEventDataSchema: CustomerEventDataSchemaType = CustomerSchema;

type ProductZod = typeof ProductSchema;
export interface ProductEventDataSchemaType extends ProductZod {}
/** `product.created`, `product.updated`, `product.deleted` (as it was): `GET /v1/products/:id`. */
export const ProductEventDataSchema: ProductEventDataSchemaType = ProductSchema;

type InvoiceZod = typeof InvoiceSchema;
export interface InvoiceEventDataSchemaType extends InvoiceZod {}
/** `invoice.created`, `invoice.updated`, `invoice.paid`, `invoice.deleted` (as it was): `GET /v1/invoices/:id`. */
export const InvoiceEventDataSchema: InvoiceEventDataSchemaType = InvoiceSchema;

type QuoteZod = typeof QuoteSchema;
export interface QuoteEventDataSchemaType extends QuoteZod {}
/** `quote.created`, `quote.updated`, `quote.deleted` (as it was): `GET /v1/quotes/:id`. */
export const QuoteEventDataSchema: QuoteEventDataSchemaType = QuoteSchema;

type CreditNoteZod = typeof CreditNoteSchema;
export interface CreditNoteEventDataSchemaType extends CreditNoteZod {}
/** `credit_note.created`: `GET /v1/credit-notes/:id`. */
export const CreditNoteEventDataSchema: CreditNoteEventDataSchemaType = CreditNoteSchema;

type EmployeeZod = typeof EmployeeSchema;
export interface EmployeeEventDataSchemaType extends EmployeeZod {}
/** `employee.created`, `employee.updated`, `employee.deleted` (as it was): `GET /v1/hr/employees/:id`. */
export const EmployeeEventDataSchema: EmployeeEventDataSchemaType = EmployeeSchema;

type LeaveZod = typeof LeaveSchema;
export interface LeaveEventDataSchemaType extends LeaveZod {}
/** `leave.created`, `leave.updated`, `leave.deleted` (as it was): `GET /v1/hr/leaves/:id`. */
export const LeaveEventDataSchema: LeaveEventDataSchemaType = LeaveSchema;

type PaymentCreatedZod = z.ZodUnion<[typeof PaymentSchema, typeof BillPaymentSchema]>;
export interface PaymentCreatedDataSchemaType extends PaymentCreatedZod {}
/**
 * `payment.created`: a payment recorded against an invoice (the general group's `Payment`, in major
 * units, with `invoice_id`) or against a bill (finance's `BillPayment`, in minor units, with `bill_id`).
 */
export const PaymentCreatedDataSchema: PaymentCreatedDataSchemaType = extendApi(
  z.union([PaymentSchema, BillPaymentSchema]),
  {
    title: 'PaymentCreatedData',
    description:
      'An invoice payment (`invoice_id`, amounts in major units) or a bill payment (`bill_id`, amounts in ' +
      'minor units).',
  },
);

const tierRef = TierSchema.pick({ publicId: true, name: true, color: true });
type TierRefZod = typeof tierRef;
export interface LoyaltyTierRefSchemaType extends TierRefZod {}
/** A tier as the loyalty events name it. */
export const LoyaltyTierRefSchema: LoyaltyTierRefSchemaType = extendApi(tierRef, {
  title: 'LoyaltyTierRef',
  example: { publicId: 'tier_01JD7X2R5VQ8N3K4M6P9T1W2Y8', name: 'Gold', color: '#FFD700' },
});

type PointsEarnedZod = z.ZodObject<
  { transaction: typeof TransactionSchema; member: typeof MemberSchema },
  'strip'
>;
export interface PointsEarnedDataSchemaType extends PointsEarnedZod {}
/** `loyalty.points_earned`: the credit and the member after it. */
export const PointsEarnedDataSchema: PointsEarnedDataSchemaType = extendApi(
  z.object({ transaction: TransactionSchema, member: MemberSchema }),
  { title: 'LoyaltyPointsEarnedData' },
);

type RewardRedeemedZod = z.ZodObject<
  { redemption: typeof RedemptionSchema; member: typeof MemberSchema },
  'strip'
>;
export interface RewardRedeemedDataSchemaType extends RewardRedeemedZod {}
/** `loyalty.reward_redeemed`: the redemption and the member after it. */
export const RewardRedeemedDataSchema: RewardRedeemedDataSchemaType = extendApi(
  z.object({ redemption: RedemptionSchema, member: MemberSchema }),
  { title: 'LoyaltyRewardRedeemedData' },
);

type TierChangedZod = z.ZodObject<
  {
    member: typeof MemberSchema;
    previousTier: z.ZodNullable<LoyaltyTierRefSchemaType>;
    newTier: z.ZodNullable<LoyaltyTierRefSchemaType>;
  },
  'strip'
>;
export interface TierChangedDataSchemaType extends TierChangedZod {}
/** `loyalty.tier_changed`: the member in its new tier, the tier it left and the one it is in now. */
export const TierChangedDataSchema: TierChangedDataSchemaType = extendApi(
  z.object({
    member: MemberSchema,
    previousTier: LoyaltyTierRefSchema.nullable().describe('The tier it left; null on its first tier.'),
    newTier: LoyaltyTierRefSchema.nullable().describe(
      'The tier it is in now; null when its tier was deleted and no lower tier remains.',
    ),
  }),
  { title: 'LoyaltyTierChangedData' },
);

type ReminderSentZod = z.ZodObject<
  { reminder: typeof ReminderSchema; member: typeof MemberSchema; dueDate: typeof DateSchema },
  'strip'
>;
export interface ReminderSentDataSchemaType extends ReminderSentZod {}
/** `loyalty.reminder_sent`: the reminder, the member it was emailed to and the date it is due. */
export const ReminderSentDataSchema: ReminderSentDataSchemaType = extendApi(
  z.object({
    reminder: ReminderSchema,
    member: MemberSchema,
    dueDate: extendApi(DateSchema, { description: 'The day the service is due.' }),
  }),
  { title: 'LoyaltyReminderSentData' },
);

/** Each event's `data` schema. */
export const WEBHOOK_EVENT_DATA = {
  'customer.created': CustomerEventDataSchema,
  'customer.updated': CustomerEventDataSchema,
  'customer.deleted': CustomerEventDataSchema,
  'invoice.created': InvoiceEventDataSchema,
  'invoice.updated': InvoiceEventDataSchema,
  'invoice.deleted': InvoiceEventDataSchema,
  'invoice.paid': InvoiceEventDataSchema,
  'product.created': ProductEventDataSchema,
  'product.updated': ProductEventDataSchema,
  'product.deleted': ProductEventDataSchema,
  'quote.created': QuoteEventDataSchema,
  'quote.updated': QuoteEventDataSchema,
  'quote.deleted': QuoteEventDataSchema,
  'credit_note.created': CreditNoteEventDataSchema,
  'payment.created': PaymentCreatedDataSchema,
  'employee.created': EmployeeEventDataSchema,
  'employee.updated': EmployeeEventDataSchema,
  'employee.deleted': EmployeeEventDataSchema,
  'leave.created': LeaveEventDataSchema,
  'leave.updated': LeaveEventDataSchema,
  'leave.deleted': LeaveEventDataSchema,
  'loyalty.points_earned': PointsEarnedDataSchema,
  'loyalty.reward_redeemed': RewardRedeemedDataSchema,
  'loyalty.tier_changed': TierChangedDataSchema,
  'loyalty.reminder_sent': ReminderSentDataSchema,
} as const satisfies Record<EventName, z.ZodTypeAny>;

const envelopeFields = {
  timestamp: extendApi(TimestampSchema, {
    description:
      'When this attempt was made. Each attempt is signed afresh: refuse a message whose timestamp is more ' +
      'than five minutes away from your clock.',
  }),
  deliveryId: extendApi(z.string().uuid(), {
    description:
      'One id per webhook and event, the same on every retry (also `X-Webhook-Delivery-Id` and ' +
      '`webhook-id`): deduplicate on it.',
    example: '0b0f7d5e-6b0f-4a4e-9d59-2b1b8f6f2a71',
  }),
  occurredAt: extendApi(TimestampSchema, { description: 'When the change happened.' }),
  livemode: extendApi(z.boolean(), {
    description:
      "false when the change happened in a business's staging sandbox (its test clock's time), true for live data.",
    example: true,
  }),
};

type WebhookEnvelopeZod = z.ZodObject<
  {
    event: z.ZodEnum<[EventName, ...EventName[]]>;
    data: z.ZodUnknown;
    timestamp: typeof TimestampSchema;
    deliveryId: z.ZodString;
    occurredAt: typeof TimestampSchema;
    livemode: z.ZodBoolean;
  },
  'strip'
>;
export interface WebhookEnvelopeSchemaType extends WebhookEnvelopeZod {}
/** The body of every delivery, whatever its event: `{event, data, timestamp, deliveryId, occurredAt, livemode}`. */
export const WebhookEnvelopeSchema: WebhookEnvelopeSchemaType = extendApi(
  z.object({
    event: z.enum(EVENT_NAMES).describe('The event name (also `X-Webhook-Event`).'),
    data: z.unknown().describe("The event's payload; see each event."),
    ...envelopeFields,
  }),
  { title: 'WebhookEnvelope' },
);

/** The body of one event's deliveries: the envelope with its `event` and `data`. */
export interface WebhookMessageSchemaOf<E extends EventName, D extends z.ZodTypeAny> extends z.ZodObject<
  {
    event: z.ZodLiteral<E>;
    data: D;
    timestamp: typeof TimestampSchema;
    deliveryId: z.ZodString;
    occurredAt: typeof TimestampSchema;
    livemode: z.ZodBoolean;
  },
  'strip'
> {}

type EventData = typeof WEBHOOK_EVENT_DATA;

/** `customer.created` -> `CustomerCreated`, `loyalty.points_earned` -> `LoyaltyPointsEarned`. */
const pascal = (event: string) =>
  event
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

function messageSchema<E extends EventName>(event: E): WebhookMessageSchemaOf<E, EventData[E]> {
  const schema = extendApi(
    z.object({ event: z.literal(event), data: WEBHOOK_EVENT_DATA[event], ...envelopeFields }),
    { title: `${pascal(event)}Event`, description: `What a webhook subscribed to \`${event}\` receives.` },
  );
  // The same object type; the compiler cannot follow `EventData[E]` through Zod's generics.
  return schema as unknown as WebhookMessageSchemaOf<E, EventData[E]>;
}

type MessageSchemas = { [E in EventName]: WebhookMessageSchemaOf<E, EventData[E]> };

/** Each event's delivery body, titled `CustomerCreatedEvent`, `InvoicePaidEvent`, ... */
export const WEBHOOK_MESSAGE_SCHEMAS: MessageSchemas = Object.fromEntries(
  EVENT_NAMES.map((event) => [event, messageSchema(event)]),
) as MessageSchemas;

/** One event's `data`. */
export type WebhookEventData<E extends EventName> = z.infer<EventData[E]>;
/** The delivery body of one event. */
export interface WebhookMessageOf<E extends EventName> {
  event: E;
  data: WebhookEventData<E>;
  timestamp: string;
  deliveryId: string;
  occurredAt: string;
  livemode: boolean;
}
/** A delivery body, narrowed by `event`: `if (message.event === 'invoice.paid') message.data.total`. */
export type WebhookMessage = { [E in EventName]: WebhookMessageOf<E> }[EventName];

/**
 * Every delivery body, told apart by `event` (a Zod discriminated union of WEBHOOK_MESSAGE_SCHEMAS).
 * Typed by what it parses to: the union's own generic type would spell out 24 schemas.
 */
export const WebhookMessageSchema = extendApi(
  z.discriminatedUnion(
    'event',
    EVENT_NAMES.map((event) => WEBHOOK_MESSAGE_SCHEMAS[event]) as unknown as [
      z.AnyZodObject,
      ...z.AnyZodObject[],
    ],
  ),
  { title: 'WebhookMessage' },
) as unknown as z.ZodType<WebhookMessage>;

export type WebhookEnvelope = z.infer<typeof WebhookEnvelopeSchema>;
export type PaymentCreatedData = z.infer<typeof PaymentCreatedDataSchema>;
export type LoyaltyTierRef = z.infer<typeof LoyaltyTierRefSchema>;
export type PointsEarnedData = z.infer<typeof PointsEarnedDataSchema>;
export type RewardRedeemedData = z.infer<typeof RewardRedeemedDataSchema>;
export type TierChangedData = z.infer<typeof TierChangedDataSchema>;
export type ReminderSentData = z.infer<typeof ReminderSentDataSchema>;
