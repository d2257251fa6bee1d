import type { Express } from 'express';
import type { Deps } from '../../platform/deps.js';

/**
 * The link of an invitation mail, `/invitations/<token>`, opens the dashboard's acceptance screen with
 * the token in the URL fragment: a browser never sends a fragment, so the token reaches no server log
 * or proxy again, and the screen can keep the session it makes in the tab as sign-in does
 * (docs/decisions.md D55). The screen checks the token through the API, which throttles and
 * counts wrong ones.
 */
export function mountInvitationPages(app: Express, _deps: Deps): void {
  app.get('/invitations/:token', (req, res) => {
    const token = String(req.params.token ?? '');
    res.set('Cache-Control', 'no-store');
    res.redirect(303, `/app/invitation#${encodeURIComponent(token)}`);
  });
}
