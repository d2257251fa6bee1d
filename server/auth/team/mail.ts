import type { Role } from '../../../contract/permissions.js';
import { escapeHtml } from '../../platform/pages.js';

/** Each role in plain words: what the person will be able to do. */
const ROLE_WORDS: Record<Role, { name: string; does: string }> = {
  owner: { name: 'an owner', does: 'run everything, including the team and its owners' },
  admin: { name: 'an administrator', does: 'run everything but the owners: settings, team, API keys' },
  accountant: { name: 'an accountant', does: 'work with customers, sales and the books' },
  hr: { name: 'the HR manager', does: 'manage employees, departments and leave' },
  marketing: { name: 'a marketer', does: 'run campaigns and manage customers as contacts' },
  loyalty: { name: 'the loyalty manager', does: 'run the loyalty program and its members' },
  viewer: { name: 'a viewer', does: 'see the business without changing anything' },
};

const day = (at: Date) => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * The invitation mail, written to the person: who invites them where, as what, the link, how long
 * it works and what to do when it was not expected. No API detail: developers read the docs.
 */
export function invitationMail(input: {
  businessName: string;
  /** The email of the person who invited; undefined when an API key did. */
  inviter: string | undefined;
  role: Role;
  link: string;
  expiresAt: Date;
}): { subject: string; text: string; html: string } {
  const { businessName, inviter, link } = input;
  const role = ROLE_WORDS[input.role];
  const who = inviter ?? businessName;
  const subject = inviter
    ? `${inviter} invited you to ${businessName}`
    : `You are invited to ${businessName}`;
  const lead = inviter
    ? `${inviter} invited you to join ${businessName} as ${role.name}.`
    : `${businessName} invited you to join its team as ${role.name}.`;
  const what = `You will be able to ${role.does}.`;
  const validity = `The link works once and is valid for 7 days, until ${day(input.expiresAt)}.`;
  const unexpected =
    `Not expecting this? You can ignore this email: nothing happens unless you open the link and ` +
    `accept. If you think it was sent by mistake, tell ${who}.`;
  const text = [
    'Hello,',
    `${lead} ${what}`,
    `Accept the invitation:\n${link}`,
    `If you already have an account with this email, you sign in with it; otherwise you choose a password.`,
    validity,
    unexpected,
  ].join('\n\n');
  const p = (s: string) => `<p style="margin:0 0 16px">${escapeHtml(s)}</p>`;
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>` +
    `<body style="margin:0;padding:24px;background:#f5f6f8;font-family:system-ui,-apple-system,'Segoe UI',sans-serif;color:#1c2230;line-height:1.5">` +
    `<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">` +
    `<h1 style="font-size:20px;margin:0 0 16px">Join ${escapeHtml(businessName)}</h1>` +
    p(lead) +
    p(what) +
    `<p style="margin:24px 0"><a href="${escapeHtml(link)}" style="display:inline-block;background:#2f5bd3;color:#ffffff;text-decoration:none;padding:12px 20px;border-radius:6px;font-weight:600">Accept the invitation</a></p>` +
    `<p style="margin:0 0 16px;font-size:14px;color:#4a5263">Or open this link: <a href="${escapeHtml(link)}" style="color:#2f5bd3;word-break:break-all">${escapeHtml(link)}</a></p>` +
    p(validity) +
    `<p style="margin:0;font-size:14px;color:#4a5263">${escapeHtml(unexpected)}</p>` +
    `</div></body></html>`;
  return { subject, text, html };
}
