/*
 * The permissions and the roles by name, which the auth routes' schemas list: a module of its own, so
 * that a client of the auth routes (the dashboard's sign-in page) carries them without the table of
 * every operation's permission in permissions.ts (docs/decisions.md D53, D260).
 */

export const PERMISSIONS = [
  'settings.read',
  'settings.write',
  'team.read',
  'team.manage',
  'audit.read',
  'api_keys.manage',
  'webhooks.manage',
  'customers.read',
  'customers.write',
  'sales.read',
  'sales.write',
  'finance.read',
  'finance.write',
  'hr.read',
  'hr.write',
  'marketing.read',
  'marketing.write',
  'loyalty.read',
  'loyalty.write',
  'sandbox.read',
  'sandbox.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLES = ['owner', 'admin', 'accountant', 'hr', 'marketing', 'loyalty', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/**
 * Who reads a live business's captured mail (no `SMTP_URL`): it carries invitation links, so only the
 * roles that may invite (owners and admins; `full` API keys act as admins). A sandbox's captured mail
 * is every `sandbox.read` role's: a sandbox invites nobody. The server refuses, the dashboard hides.
 */
export const readsCapturedLiveMail = (role: Role | undefined): boolean =>
  role === 'owner' || role === 'admin';
