import type { Member, MemberDetail } from '../../../contract/loyalty/index.js';
import type { MemberViewRow } from './queries.js';

export const toMember = (row: MemberViewRow): Member => ({
  publicId: row.id,
  customerId: row.customer_id,
  customerName: row.customer_name,
  customerEmail: row.customer_email,
  tierId: row.tier_id,
  tierName: row.tier_name,
  tierColor: row.tier_color,
  pointsBalance: Number(row.points_balance),
  lifetimePoints: Number(row.lifetime_points),
  status: row.status,
  enrolledAt: row.enrolled_at.toISOString(),
});

export const toMemberDetail = (row: MemberViewRow): MemberDetail => ({
  ...toMember(row),
  customerPhone: row.customer_phone,
});
