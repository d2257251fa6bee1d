import { sql, type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import {
  attributeKey,
  fieldKind,
  type Condition,
  type SegmentFilters,
} from '../../../contract/marketing/index.js';
import type { Database } from '../../platform/db/types.js';

/**
 * Segment filters compiled to SQL over `customer_directory as c`. Field names come from the contract's
 * allow-list and only pick a column; every value (attribute keys too) travels as a parameter.
 */
export type ContactsEb = ExpressionBuilder<Database & { c: Database['customer_directory'] }, 'c'>;

const TEXT_COLUMNS = {
  email: sql.ref('c.email'),
  name: sql.ref('c.name'),
  first_name: sql.ref('c.first_name'),
  last_name: sql.ref('c.last_name'),
  company: sql.ref('c.company'),
} as const;

const TRUE = sql<SqlBool>`true`;
const FALSE = sql<SqlBool>`false`;

/** `%` and `_` match themselves in a LIKE pattern built from a value. */
const likeEscape = (value: string) => value.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** A text value read as a number, or null when it is not one (never an error). */
const asNumber = (column: RawBuilder<unknown>) =>
  sql`(CASE WHEN ${column} ~ '^\\s*-?[0-9]+(\\.[0-9]+)?\\s*$' THEN btrim(${column})::numeric END)`;

const COMPARISON = { gt: '>', gte: '>=', lt: '<', lte: '<=' } as const;

/**
 * An attribute compared with a string: equality is exact (containment, which the attributes index
 * serves); the other operators read the value as text like the contact fields.
 */
function attributeCondition(key: string, condition: Condition): RawBuilder<SqlBool> {
  const { operator, value } = condition;
  if (typeof value === 'string' && (operator === 'eq' || operator === 'neq')) {
    const contains = sql<SqlBool>`c.attributes @> jsonb_build_object(${key}::text, ${value}::text)`;
    return operator === 'eq' ? contains : sql`NOT (${contains})`;
  }
  if (operator === 'in') {
    return sql`(c.attributes ->> ${key}) = ANY(${(value as (string | number)[]).map(String)}::text[])`;
  }
  return textCondition(sql`(c.attributes ->> ${key})`, condition);
}

function textCondition(column: RawBuilder<unknown>, { operator, value }: Condition): RawBuilder<SqlBool> {
  switch (operator) {
    case 'exists':
      return value
        ? sql`(${column} IS NOT NULL AND ${column} <> '')`
        : sql`(${column} IS NULL OR ${column} = '')`;
    case 'in': {
      const values = (value as (string | number)[]).map((v) => String(v).toLowerCase());
      return sql`lower(${column}) = ANY(${values}::text[])`;
    }
    case 'contains':
      return sql`${column} ILIKE ${`%${likeEscape(String(value))}%`}`;
    case 'starts_with':
      return sql`${column} ILIKE ${`${likeEscape(String(value))}%`}`;
    default:
      break;
  }
  if (typeof value === 'number') {
    const n = asNumber(column);
    if (operator === 'eq') return sql`${n} = ${value}::numeric`;
    if (operator === 'neq') return sql`${n} IS DISTINCT FROM ${value}::numeric`;
    return sql`${n} ${sql.raw(COMPARISON[operator])} ${value}::numeric`;
  }
  const text = String(value);
  if (operator === 'eq') return sql`lower(${column}) = lower(${text})`;
  if (operator === 'neq') return sql`lower(${column}) IS DISTINCT FROM lower(${text})`;
  return sql`${column} ${sql.raw(COMPARISON[operator])} ${text}`;
}

/**
 * created_at against a date (its UTC day, as ranges so the index serves them) or a timestamp.
 */
function createdAtCondition({ operator, value }: Condition): RawBuilder<SqlBool> {
  const text = String(value);
  const column = sql.ref('c.created_at');
  if (text.length > 10) {
    if (operator === 'eq') return sql`${column} = ${text}::timestamptz`;
    if (operator === 'neq') return sql`${column} <> ${text}::timestamptz`;
    return sql`${column} ${sql.raw(COMPARISON[operator as keyof typeof COMPARISON])} ${text}::timestamptz`;
  }
  const start = sql`(${text}::date::timestamp AT TIME ZONE 'UTC')`;
  const next = sql`((${text}::date + 1)::timestamp AT TIME ZONE 'UTC')`;
  switch (operator) {
    case 'eq':
      return sql`(${column} >= ${start} AND ${column} < ${next})`;
    case 'neq':
      return sql`(${column} < ${start} OR ${column} >= ${next})`;
    case 'gt':
      return sql`${column} >= ${next}`;
    case 'gte':
      return sql`${column} >= ${start}`;
    case 'lt':
      return sql`${column} < ${start}`;
    default:
      return sql`${column} < ${next}`;
  }
}

export function conditionSql(condition: Condition): RawBuilder<SqlBool> {
  const kind = fieldKind(condition.field);
  switch (kind) {
    case 'text':
      return textCondition(TEXT_COLUMNS[condition.field as keyof typeof TEXT_COLUMNS], condition);
    case 'attribute':
      return attributeCondition(attributeKey(condition.field), condition);
    case 'created_at':
      return createdAtCondition(condition);
    case 'unsubscribed':
      return condition.operator === 'eq'
        ? sql`c.unsubscribed = ${condition.value === true}`
        : sql`c.unsubscribed <> ${condition.value === true}`;
    default:
      // The contract refuses any other field; nothing matches one that slipped through.
      return FALSE;
  }
}

/** Whether a contact meets the filters (no conditions: every contact). */
export function filtersSql(filters: SegmentFilters): Expression<SqlBool> {
  const parts = filters.conditions.map(conditionSql);
  if (parts.length === 0) return TRUE;
  const joiner = filters.match === 'any' ? sql` OR ` : sql` AND `;
  return sql<SqlBool>`(${sql.join(parts, joiner)})`;
}

export interface SegmentDefinition {
  businessId: string;
  id: string;
  filters: SegmentFilters | null;
  /** How many contacts it lists by id (none: the list is not read). */
  listed: number;
}

/**
 * Contacts in the segment: listed by id, or meeting its filters. The listed ids are read once into
 * an array, so the planner can serve both sides of the OR from indexes.
 */
export function inSegment(segment: SegmentDefinition): Expression<SqlBool> {
  const listed = sql<SqlBool>`c.id = ANY(ARRAY(
    SELECT m.customer_id FROM marketing_segment_contacts m
    WHERE m.business_id = ${segment.businessId} AND m.segment_id = ${segment.id}
  ))`;
  if (!segment.filters) return segment.listed > 0 ? listed : FALSE;
  const filters = filtersSql(segment.filters);
  return segment.listed > 0 ? sql<SqlBool>`(${listed} OR ${filters})` : filters;
}
