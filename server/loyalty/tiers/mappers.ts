import type { Tier } from '../../../contract/loyalty/index.js';
import type { TierRow } from '../../platform/db/types.js';

export const toTier = (row: TierRow): Tier => ({
  publicId: row.id,
  name: row.name,
  color: row.color,
  minPoints: Number(row.min_points),
  multiplier: Number(row.multiplier),
  sortOrder: row.sort_order,
});

/** A tier as events name it: `{publicId, name, color}`, or null for none. */
export const toTierBrief = (t: { id: string; name: string; color: string } | null) =>
  t ? { publicId: t.id, name: t.name, color: t.color } : null;
