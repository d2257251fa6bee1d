import type { FunctionComponent } from 'preact';
import type { Permission } from '../client/index.js';

/**
 * Every screen of the dashboard: its path under /app, the permission it needs (the screen and its
 * link are hidden from roles without it), and its module, loaded the first time it is opened (one
 * chunk per screen).
 */

export interface ScreenProps {
  params: Record<string, string>;
}

export type ScreenModule = { default: FunctionComponent<ScreenProps> };

export interface Screen {
  path: string;
  title: string;
  permission: Permission | null;
  load: () => Promise<ScreenModule>;
  /** Where the navigation lists it, if it does. */
  nav?: { group: 'Business' | 'Sales' | 'Settings'; label: string };
}

export const SCREENS: Screen[] = [
  {
    path: '/',
    title: 'Overview',
    permission: null,
    load: () => import('./screens/overview.js'),
    nav: { group: 'Business', label: 'Overview' },
  },
  {
    path: '/customers',
    title: 'Customers',
    permission: 'customers.read',
    load: () => import('./screens/customers.js'),
    nav: { group: 'Sales', label: 'Customers' },
  },
  {
    path: '/customers/:id',
    title: 'Customer',
    permission: 'customers.read',
    load: () => import('./screens/customer.js'),
  },
  {
    path: '/products',
    title: 'Products',
    permission: 'sales.read',
    load: () => import('./screens/products.js'),
    nav: { group: 'Sales', label: 'Products' },
  },
  {
    path: '/invoices',
    title: 'Invoices',
    permission: 'sales.read',
    load: () => import('./screens/invoices.js'),
    nav: { group: 'Sales', label: 'Invoices' },
  },
  {
    path: '/invoices/new',
    title: 'New invoice',
    permission: 'sales.write',
    load: () => import('./screens/invoice-new.js'),
  },
  {
    path: '/invoices/:id',
    title: 'Invoice',
    permission: 'sales.read',
    load: () => import('./screens/invoice.js'),
  },
  {
    path: '/quotes',
    title: 'Quotes',
    permission: 'sales.read',
    load: () => import('./screens/quotes.js'),
    nav: { group: 'Sales', label: 'Quotes' },
  },
  {
    path: '/quotes/new',
    title: 'New quote',
    permission: 'sales.write',
    load: () => import('./screens/quote-new.js'),
  },
  { path: '/quotes/:id', title: 'Quote', permission: 'sales.read', load: () => import('./screens/quote.js') },
  {
    path: '/settings/business',
    title: 'Business settings',
    permission: 'settings.read',
    load: () => import('./screens/settings/business.js'),
    nav: { group: 'Settings', label: 'Business' },
  },
  {
    path: '/settings/team',
    title: 'Team',
    permission: 'team.read',
    load: () => import('./screens/settings/team.js'),
    nav: { group: 'Settings', label: 'Team' },
  },
  {
    path: '/settings/api-keys',
    title: 'API keys',
    permission: 'api_keys.manage',
    load: () => import('./screens/settings/api-keys.js'),
    nav: { group: 'Settings', label: 'API keys' },
  },
  {
    path: '/settings/webhooks',
    title: 'Webhooks',
    permission: 'webhooks.manage',
    load: () => import('./screens/settings/webhooks.js'),
    nav: { group: 'Settings', label: 'Webhooks' },
  },
  {
    path: '/settings/webhooks/:id',
    title: 'Webhook',
    permission: 'webhooks.manage',
    load: () => import('./screens/settings/webhook.js'),
  },
  {
    path: '/settings/domains',
    title: 'Sender domains',
    permission: 'marketing.read',
    load: () => import('./screens/settings/domains.js'),
    nav: { group: 'Settings', label: 'Sender domains' },
  },
  {
    path: '/audit-log',
    title: 'Audit log',
    permission: 'audit.read',
    load: () => import('./screens/audit-log.js'),
    nav: { group: 'Settings', label: 'Audit log' },
  },
];
