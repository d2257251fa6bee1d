import type { Invitation, TeamMember } from '../../../contract/team/index.js';
import type { InvitationRow, MembershipsTable } from '../../platform/db/types.js';

export const toMember = (
  row: {
    user_id: string;
    email: string;
    role: MembershipsTable['role'];
    created_at: Date;
  },
  activeApiKeys: number,
): TeamMember => ({
  userId: row.user_id,
  email: row.email,
  role: row.role,
  joinedAt: row.created_at.toISOString(),
  activeApiKeys,
});

export const toInvitation = (row: InvitationRow): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  createdAt: row.created_at.toISOString(),
  sentAt: row.sent_at.toISOString(),
  expiresAt: row.expires_at.toISOString(),
});
