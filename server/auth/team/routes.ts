import { initServer } from '@ts-rest/express';
import { contract } from '../../../contract/index.js';
import { created, ok, success } from '../../platform/answers.js';
import { ctxFor, type Deps } from '../../platform/deps.js';
import { forgetCredential } from '../credential-cache.js';
import * as team from './service.js';

const s = initServer();

/** Who acts on the team: the role of the caller's credential. */
const actorOf = (req: Express.Request): team.Actor => ({ role: req.auth?.role, userId: req.auth?.userId });

/** The team's routes: `contract.team` (accepting an invitation is signing in, in the auth routes). */
export const teamRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);

  return s.router(contract.team, {
    getTeam: async ({ req }) => ok(success({ data: await team.getTeam(ctx(req)) })),

    inviteMember: async ({ body, req }) =>
      created(success({ data: await team.invite(ctx(req), actorOf(req), body) })),

    resendInvitation: async ({ params, req }) =>
      ok(success({ data: await team.resendInvitation(ctx(req), actorOf(req), params.id) })),

    getInvitationLink: async ({ params, req }) =>
      ok(success({ data: await team.invitationLink(ctx(req), actorOf(req), params.id) })),

    revokeInvitation: async ({ params, req }) => {
      await team.revokeInvitation(ctx(req), actorOf(req), params.id);
      return ok(success({ message: 'Invitation revoked' }));
    },

    changeMemberRole: async ({ params, body, req }) => {
      const { member, tokenIds, revokedApiKeys } = await team.changeRole(
        ctx(req),
        actorOf(req),
        params.userId,
        body,
      );
      for (const id of tokenIds) forgetCredential(deps, id);
      const message = revokedApiKeys
        ? `Role changed; ${keysCount(revokedApiKeys)} they made revoked`
        : 'Role changed';
      return ok(success({ message, data: member }));
    },

    removeMember: async ({ params, req }) => {
      const { removed, credentialIds } = await team.removeMember(ctx(req), actorOf(req), params.userId);
      for (const id of credentialIds) forgetCredential(deps, id);
      const keys = keysCount(removed.revokedApiKeys);
      return ok(success({ message: `Team member removed; ${keys} they made revoked`, data: removed }));
    },
  });
};

const keysCount = (n: number) => (n === 1 ? '1 API key' : `${n} API keys`);
