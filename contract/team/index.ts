import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ROLES } from '../permissions.js';
import { resultData, resultEnvelope, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { EmailSchema, IdempotencyHeadersSchema, IdSchema, TimestampSchema, idOf } from '../common/schemas.js';

const c = initContract();

export const RoleSchema = extendApi(z.enum(ROLES), {
  description:
    "A member's role (docs/decisions.md D53): `owner` (everything, and the only one who may make or unmake " +
    'owners), `admin` (everything else, team included), `accountant`, `hr`, `marketing`, `loyalty`, `viewer`.',
});

export const TeamMemberSchema = extendApi(
  z.object({
    userId: idOf('usr'),
    email: z.string(),
    role: RoleSchema,
    joinedAt: TimestampSchema,
    activeApiKeys: z
      .number()
      .int()
      .min(0)
      .describe(
        'API keys the person made that are not revoked, live and sandbox: removing them from the team revokes ' +
          'these. Keys made from the command line or before their maker was kept count for no one.',
      ),
  }),
  { title: 'TeamMember' },
);
export type TeamMember = z.infer<typeof TeamMemberSchema>;

export const RemovedMemberSchema = extendApi(
  z.object({
    userId: idOf('usr'),
    email: z.string(),
    revokedApiKeys: z
      .number()
      .int()
      .min(0)
      .describe('How many API keys the person made (live and sandbox) were revoked with the removal.'),
  }),
  {
    title: 'RemovedMember',
    example: { userId: 'usr_01JD7X2R5VQ8N3K4M6P9T1W2Y3', email: 'ada@acme.test', revokedApiKeys: 2 },
  },
);
export type RemovedMember = z.infer<typeof RemovedMemberSchema>;

export const InvitationSchema = extendApi(
  z.object({
    id: idOf('inv'),
    email: z.string(),
    role: RoleSchema,
    createdAt: TimestampSchema,
    sentAt: TimestampSchema.describe('When the mail last went out (the invitation, or its last resend).'),
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

export const InvitationLinkSchema = extendApi(
  z.object({
    url: z
      .string()
      .describe('The link of the invitation mail: whoever opens it can accept as the invited email.'),
    expiresAt: TimestampSchema,
  }),
  { title: 'InvitationLink' },
);
export type InvitationLink = z.infer<typeof InvitationLinkSchema>;

const MemberParamsSchema = z.object({ userId: IdSchema.describe("The member's user id") });
const InvitationParamsSchema = z.object({ id: IdSchema.describe("The invitation's id") });

const teamRoute = meta('user', 'Team');

/**
 * The business's team: members, their roles, and invitations (docs/decisions.md D53). Accepting an
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
  resendInvitation: {
    method: 'POST',
    path: '/team/invitations/:id/resend',
    headers: IdempotencyHeadersSchema,
    summary: 'Resend an invitation',
    description:
      'Mails the invitation again, with the same link, and makes it valid for 7 days from now. Only an owner ' +
      'may resend an invitation as owner (403). An invitation accepted or expired: 409 INVALID_STATE (invite ' +
      'the email again).',
    pathParams: InvitationParamsSchema,
    body: c.noBody(),
    responses: { 200: resultData(InvitationSchema), ...resultErrors(404, 409) },
    metadata: teamRoute,
  },
  getInvitationLink: {
    method: 'POST',
    path: '/team/invitations/:id/link',
    summary: "Read an invitation's link",
    description:
      'The link the invitation mail carries, to hand to the person another way. A POST, so each read is in ' +
      'the audit log. An invitation made before links could be read again gets a new token: its mailed link ' +
      'stops working. Only an owner may read the link of an invitation as owner (403). An invitation ' +
      'accepted or expired: 409 INVALID_STATE.',
    pathParams: InvitationParamsSchema,
    body: c.noBody(),
    responses: { 200: resultData(InvitationLinkSchema), ...resultErrors(404, 409) },
    metadata: teamRoute,
  },
  revokeInvitation: {
    method: 'DELETE',
    path: '/team/invitations/:id',
    summary: 'Revoke an invitation',
    description:
      'Deletes a pending or expired invitation: its link stops working at once. Only an owner may revoke an ' +
      'invitation as owner (403). An invitation already accepted: 409 INVALID_STATE (remove the member ' +
      'instead).',
    pathParams: InvitationParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
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
      'Removes the person from the team and, at once, revokes their access tokens and the API keys they made, ' +
      'for the business and its sandbox; the answer says how many keys were revoked (`GET /v1/team` says ' +
      'beforehand, as `activeApiKeys`). Keys whose maker is unknown (made from the command line or before ' +
      'makers were kept) stay. Only an owner may remove an owner (403); the last owner cannot be removed (409).',
    pathParams: MemberParamsSchema,
    body: c.noBody(),
    responses: {
      200: resultEnvelope({ message: z.string(), data: RemovedMemberSchema }),
      ...resultErrors(404, 409),
    },
    metadata: teamRoute,
  },
});
