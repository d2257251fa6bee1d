import type { Role } from '../../client/index.js';

/** What each role lets a person do, in the words the team screen and the invitation screen use. */
export const ROLE_HELP: Record<Role, string> = {
  owner: 'Everything, including making or removing owners.',
  admin: 'Everything else: settings, team, API keys, webhooks and the audit log.',
  accountant: 'Customers, sales and finance.',
  hr: 'Employees, departments and leave.',
  marketing: 'Marketing, and customers as contacts.',
  loyalty: 'The loyalty program and its members.',
  viewer: 'Reads everything but the audit log; changes nothing.',
};

export const roleLabel = (role: Role) => role.charAt(0).toUpperCase() + role.slice(1);
