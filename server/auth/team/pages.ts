import express, { type Express, type Request, type Response } from 'express';
import { AcceptInvitationBodySchema } from '../../../contract/auth/index.js';
import type { Deps } from '../../platform/deps.js';
import { ApiError } from '../../platform/errors.js';
import { escapeHtml, handle, page } from '../../platform/pages.js';
import { isBlocked } from '../../platform/rate-limit.js';
import { acceptInvitation, describeInvitation, type InvitationView } from './service.js';

/**
 * The page behind an invitation mail's link (DESIGN section 15): it shows who invites whom as what,
 * and its form accepts as `POST /v1/auth/invitations/accept` does, a new person setting a password.
 * No script; a wrong token counts as a failed sign-in of the address, as the API's accept does.
 */

const gone = (res: Response) =>
  page(
    res,
    404,
    'Invitation not found',
    '<p>This invitation is unknown, already used or expired. Ask the business to invite you again.</p>',
  );

function form(res: Response, token: string, view: InvitationView, status = 200, error?: string): void {
  const action = `/invitations/${encodeURIComponent(token)}`;
  const intro =
    `<p>${escapeHtml(view.businessName)} invites <strong>${escapeHtml(view.email)}</strong> to join ` +
    `its team as <strong>${escapeHtml(view.role)}</strong>.</p>`;
  const fields = view.hasAccount
    ? `<p>You already have an account with this email: accepting adds this business to it, and you ` +
      `sign in with your password as before.</p>`
    : `<label for="password">Choose a password (12 characters or more)</label>` +
      `<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" ` +
      `maxlength="200" required${error ? ' aria-invalid="true" aria-describedby="password-error"' : ''}>` +
      (error ? `<p id="password-error" class="error" role="alert">${escapeHtml(error)}</p>` : '');
  page(
    res,
    status,
    'Join the team',
    `${intro}<form method="post" action="${escapeHtml(action)}">${fields}` +
      `<button type="submit">${view.hasAccount ? 'Accept' : 'Accept and create my account'}</button></form>`,
  );
}

export function mountInvitationPages(app: Express, deps: Deps): void {
  const source = { db: deps.db, clock: deps.clock, config: deps.config };
  const { signInFailuresByIp } = deps.limiters;
  const maxFailures = deps.config.SIGNIN_MAX_FAILURES;

  /** The token of the path, or null (after a 429 page) while the address is blocked. */
  const tokenOf = async (req: Request, res: Response): Promise<string | null> => {
    const blocked = await isBlocked(signInFailuresByIp, `ip:${req.ip}`, maxFailures);
    if (blocked) {
      res.set('Retry-After', String(blocked.resetSeconds));
      page(
        res,
        429,
        'Too many attempts',
        '<p>Too many failed attempts from this address; try again later.</p>',
      );
      return null;
    }
    return String(req.params.token ?? '');
  };

  const refuse = async (req: Request, res: Response) => {
    await signInFailuresByIp.penalty(`ip:${req.ip}`, 1);
    gone(res);
  };

  app.get(
    '/invitations/:token',
    handle(async (req, res) => {
      const token = await tokenOf(req, res);
      if (token === null) return;
      const view = await describeInvitation(source, token);
      if (!view) return refuse(req, res);
      form(res, token, view);
    }),
  );

  app.post(
    '/invitations/:token',
    express.urlencoded({ extended: false, limit: '4kb', parameterLimit: 5 }),
    handle(async (req, res) => {
      const token = await tokenOf(req, res);
      if (token === null) return;
      const view = await describeInvitation(source, token);
      if (!view) return refuse(req, res);
      const fields = req.body as Record<string, unknown> | undefined;
      const password = typeof fields?.password === 'string' ? fields.password : undefined;
      const body = AcceptInvitationBodySchema.safeParse({
        token,
        password: view.hasAccount ? undefined : password,
      });
      if (!body.success) {
        return form(res, token, view, 422, body.error.issues[0]?.message ?? 'Check the password');
      }
      try {
        const session = await acceptInvitation(source, body.data);
        if (!session) return refuse(req, res);
      } catch (err) {
        if (err instanceof ApiError && err.code === 'VALIDATION_ERROR')
          return form(res, token, view, 422, err.message);
        throw err;
      }
      page(
        res,
        200,
        'Welcome to the team',
        `<p>You joined ${escapeHtml(view.businessName)} as ${escapeHtml(view.role)}. Sign in with ` +
          `<strong>${escapeHtml(view.email)}</strong> and your password.</p>` +
          `<p><a href="/docs">The API documentation</a></p>`,
      );
    }),
  );
}
