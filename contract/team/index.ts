import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ROLES } from '../permissions.js';
import { resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { EmailSchema, IdempotencyHeadersSchema, IdSchema, TimestampSchema, idOf } from '../common/schemas.js';

const c = initContract();

export const RoleSchema = extendApi(z.enum(ROLES), {
  description:
    "A member's role (DESIGN section 15): `owner` (everything, and the only one who may make or unmake " +
    'owners), `admin` (everything else, team included), `accountant`, `hr`, `marketing`, `loyalty`, `viewer`.',
});

export const TeamMemberSchema = extendApi(
  z.object({
    userId: idOf('usr'),
    email: z.string(),
    role: RoleSchema,
    joinedAt: TimestampSchema,
  }),
  { title: 'TeamMember' },
);
export type TeamMember = z.infer<typeof TeamMemberSchema>;

export const InvitationSchema = extendApi(
  z.object({
    id: idOf('inv'),
    email: z.string(),
    role: RoleSchema,
    createdAt: TimestampSchema,
    expiresAt: TimestampSchema,
  }),
  { title: 'Invitation' },
);
export type Invitation = z.infer<typeof InvitationSchema>;

export const TeamSchema = extendApi(
  z.object({
    members: z.array(TeamMemberSchema).max(1000),
    invitations: z
      .array(InvitationSchema)
      .max(1000)
      .describe('Invitations neither accepted nor expired, newest first.'),
  }),
  { title: 'Team' },
);
export type Team = z.infer<typeof TeamSchema>;

export const InviteBodySchema = extendApi(z.object({ email: EmailSchema, role: RoleSchema }).strict(), {
  title: 'InviteBody',
  example: { email: 'bookkeeper@acme.test', role: 'accountant' },
});
export type InviteBody = z.infer<typeof InviteBodySchema>;

export const ChangeRoleBodySchema = extendApi(z.object({ role: RoleSchema }).strict(), {
  title: 'ChangeRoleBody',
  example: { role: 'viewer' },
});
export type ChangeRoleBody = z.infer<typeof ChangeRoleBodySchema>;

const MemberParamsSchema = z.object({ userId: IdSchema.describe("The member's user id") });

const teamRoute = meta('user', 'Team');

/**
 * The business's team: members, their roles, and invitations (DESIGN section 15). Accepting an
 * invitation is signing in, so it is in the auth contract.
 */
export const teamContract = c.router({
  getTeam: {
    method: 'GET',
    path: '/team',
    summary: 'List the team',
    description: 'The members of the business with their roles, and the pending invitations.',
    responses: { 200: resultData(TeamSchema), ...resultErrors() },
    metadata: teamRoute,
  },
  inviteMember: {
    method: 'POST',
    path: '/team/invitations',
    headers: IdempotencyHeadersSchema,
    summary: 'Invite a person',
    description:
      'Mails a single-use link (valid 7 days) inviting the email to join the business with the role; the ' +
      'token is in the mail only. Only an owner may invite an owner (403). An email already in the team: 409.',
    body: InviteBodySchema,
    responses: { 201: resultData(InvitationSchema), ...resultErrors(409) },
    metadata: teamRoute,
  },
  changeMemberRole: {
    method: 'PATCH',
    path: '/team/:userId',
    headers: IdempotencyHeadersSchema,
    summary: "Change a member's role",
    description:
      'Only an owner may make or unmake an owner (403); the last owner cannot be demoted (409). The new ' +
      "role applies to the member's next request.",
    pathParams: MemberParamsSchema,
    body: ChangeRoleBodySchema,
    responses: { 200: resultData(TeamMemberSchema), ...resultErrors(404, 409) },
    metadata: teamRoute,
  },
  removeMember: {
    method: 'DELETE',
    path: '/team/:userId',
    summary: 'Remove a member',
    description:
      'Removes the person from the team and revokes their access tokens for the business (and its sandbox) ' +
      'at once. Only an owner may remove an owner (403); the last owner cannot be removed (409).',
    pathParams: MemberParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
    metadata: teamRoute,
  },
});
