import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { ROLES, team, unwrap, type Role } from '../../../client/index.js';
import {
  Badge,
  Button,
  Empty,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
  Select,
  Table,
  type Column,
} from '../../components/ui.js';
import { FormDialog, useDraftDialog } from '../../components/form-dialog.js';
import { date, dateTime } from '../../lib/format.js';
import { describeError, useLoad } from '../../lib/forms.js';
import { ROLE_HELP, roleLabel } from '../../lib/messages.js';
import { api, can } from '../../lib/api.js';
import { session } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { ConfirmDialog } from '../../components/confirm.js';

/** "1 API key", "3 API keys". */
const apiKeysText = (n: number) => (n === 1 ? '1 API key' : `${n} API keys`);

/** The roles the signed-in person may give: only an owner makes owners. */
const assignable = (): Role[] =>
  ROLES.filter((role) => role !== 'owner' || session.value?.info.role === 'owner');

function InviteDialog(props: {
  open: boolean;
  onClose: () => void;
  onInvited: (i: team.Invitation) => void;
}) {
  const { bind, dialog } = useDraftDialog({
    open: props.open,
    onClose: props.onClose,
    initial: () => ({ email: '', role: 'viewer' }),
    send: ({ email, role }, form) =>
      form.submit(
        team.InviteBodySchema,
        { email: email.trim(), role },
        async (body) => (await unwrap(api.value.team.inviteMember({ body }))).data,
      ),
    onDone: props.onInvited,
  });
  return (
    <FormDialog title="Invite a team member" submit="Send invitation" {...dialog}>
      <p class="hint">
        They get an email with a link valid for 7 days. Accepting it makes them a member with this role.
      </p>
      <Field label="Email" type="email" autoComplete="off" {...bind('email')} required />
      <Select
        label="Role"
        {...bind('role')}
        options={assignable().map((r) => ({ value: r, label: `${roleLabel(r)}: ${ROLE_HELP[r]}` }))}
      />
    </FormDialog>
  );
}

/** A member's role, changed in place when the signed-in role may. */
function RoleCell(props: {
  member: team.TeamMember;
  onChange: (member: team.TeamMember, role: Role) => Promise<boolean>;
}) {
  const [busy, setBusy] = useState(false);
  const { member } = props;
  const ownerOnly = member.role === 'owner' && session.value?.info.role !== 'owner';
  if (!can('changeMemberRole') || ownerOnly)
    return <Badge value={member.role} label={roleLabel(member.role)} />;
  const options = member.role === 'owner' ? ROLES : assignable();
  return (
    <select
      class="inline-select"
      aria-label={`Role of ${member.email}`}
      value={member.role}
      disabled={busy}
      onChange={(e) => {
        const select = e.currentTarget;
        const role = select.value as Role;
        setBusy(true);
        void props.onChange(member, role).then((changed) => {
          setBusy(false);
          // The server decides: on a refusal the row shows the role as it still is.
          if (!changed) select.value = member.role;
        });
      }}
    >
      {options.map((r) => (
        <option key={r} value={r}>
          {roleLabel(r)}
        </option>
      ))}
    </select>
  );
}

export default function TeamSettings(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.team.getTeam())).data, []);
  const [inviting, setInviting] = useState(false);
  const [removing, setRemoving] = useState<team.TeamMember | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const me = session.value?.info.user?.id;

  const changeRole = async (member: team.TeamMember, role: Role) => {
    if (role === member.role) return true;
    setNotice(null);
    setError(null);
    try {
      const { data } = await unwrap(
        api.value.team.changeMemberRole({ params: { userId: member.userId }, body: { role } }),
      );
      // A role that may not manage API keys keeps none of the keys the member made.
      const revoked = member.activeApiKeys - data.activeApiKeys;
      setNotice(
        `${member.email} now has the ${roleLabel(role)} role.` +
          (revoked > 0
            ? ` The ${apiKeysText(revoked)} they made ${revoked === 1 ? 'was' : 'were'} revoked: that role may not manage API keys.`
            : ''),
      );
      load.reload();
      return true;
    } catch (err) {
      setError(describeError(err).message);
      return false;
    }
  };

  const columns: Column<team.TeamMember>[] = [
    {
      label: 'Member',
      render: (m) => (
        <span>
          {m.email}
          {m.userId === me ? <span class="you"> (you)</span> : null}
        </span>
      ),
    },
    { label: 'Role', render: (m) => <RoleCell member={m} onChange={changeRole} /> },
    { label: 'Joined', render: (m) => <time dateTime={m.joinedAt}>{date(m.joinedAt)}</time> },
    { label: 'API keys', render: (m) => (m.activeApiKeys === 0 ? 'None' : String(m.activeApiKeys)) },
  ];
  if (can('removeMember')) {
    columns.push({
      label: 'Actions',
      render: (m) => (
        <Button
          class="button danger small"
          aria-label={`Remove ${m.email}`}
          onClick={() => {
            setNotice(null);
            setError(null);
            setRemoving(m);
          }}
        >
          Remove
        </Button>
      ),
    });
  }

  const [revoking, setRevoking] = useState<team.Invitation | null>(null);
  const [acting, setActing] = useState<string | null>(null);
  const myRole = session.value?.info.role;
  /** Only an owner handles an invitation as owner, as only an owner makes one. */
  const manages = (i: team.Invitation) => i.role !== 'owner' || myRole === 'owner';

  /** Runs an action on an invitation row: its button busy meanwhile, its outcome said above the lists. */
  const act = (key: string, work: () => Promise<string>) => {
    setNotice(null);
    setError(null);
    setActing(key);
    work().then(
      (said) => {
        setActing(null);
        setNotice(said);
      },
      (err: unknown) => {
        setActing(null);
        setError(describeError(err).message);
      },
    );
  };

  const copyLink = (i: team.Invitation) =>
    act(`link:${i.id}`, async () => {
      const { url } = (await unwrap(api.value.team.getInvitationLink({ params: { id: i.id } }))).data;
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        return `Copy the invitation link for ${i.email}: ${url}`;
      }
      return `The invitation link for ${i.email} is copied. Whoever opens it can join as ${i.email}: send it to them only.`;
    });

  const resend = (i: team.Invitation) =>
    act(`resend:${i.id}`, async () => {
      const sent = (await unwrap(api.value.team.resendInvitation({ params: { id: i.id } }))).data;
      load.reload();
      return `Invitation sent again to ${i.email}; it is valid until ${dateTime(sent.expiresAt)}.`;
    });

  const invitationColumns: Column<team.Invitation>[] = [
    { label: 'Email', render: (i) => i.email },
    { label: 'Role', render: (i) => <Badge value={i.role} label={roleLabel(i.role)} /> },
    { label: 'Sent', render: (i) => <time dateTime={i.sentAt}>{dateTime(i.sentAt)}</time> },
    {
      label: 'Expires',
      render: (i) => (
        <span>
          <time dateTime={i.expiresAt}>{dateTime(i.expiresAt)}</time> <Badge value="pending" />
        </span>
      ),
    },
  ];
  if (can('resendInvitation')) {
    invitationColumns.push({
      label: 'Actions',
      render: (i) =>
        manages(i) ? (
          <span class="row-actions">
            <Button
              class="button small"
              aria-label={`Copy link of the invitation to ${i.email}`}
              busy={acting === `link:${i.id}`}
              onClick={() => copyLink(i)}
            >
              Copy link
            </Button>
            <Button
              class="button small"
              aria-label={`Resend the invitation to ${i.email}`}
              busy={acting === `resend:${i.id}`}
              onClick={() => resend(i)}
            >
              Resend
            </Button>
            <Button
              class="button danger small"
              aria-label={`Revoke the invitation to ${i.email}`}
              onClick={() => {
                setNotice(null);
                setError(null);
                setRevoking(i);
              }}
            >
              Revoke
            </Button>
          </span>
        ) : (
          <span class="hint">Only an owner</span>
        ),
    });
  }

  const data = load.data;
  return (
    <div class="settings">
      <PageHeader title="Team">
        {can('inviteMember') ? (
          <Button kind="primary" onClick={() => setInviting(true)}>
            Invite a member
          </Button>
        ) : null}
      </PageHeader>
      <p class="lead">The people who can sign in to this business, and what their role lets them do.</p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={error} />
      {load.loading && !data ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {data ? (
        <>
          <h2>Members</h2>
          <Table caption="Team members" columns={columns} rows={data.members} rowKey={(m) => m.userId} />

          <h2>Pending invitations</h2>
          {data.invitations.length === 0 ? (
            <Empty title="No pending invitations">
              <p>
                {can('inviteMember')
                  ? 'Invite someone with “Invite a member”: they get a link by email, valid for 7 days.'
                  : 'An owner or admin can invite people to the team.'}
              </p>
            </Empty>
          ) : (
            <Table
              caption="Pending invitations"
              rows={data.invitations}
              rowKey={(i) => i.id}
              columns={invitationColumns}
            />
          )}

          <details class="roles-help">
            <summary>What each role can do</summary>
            <dl class="facts">
              {ROLES.map((role) => (
                <Fragment key={role}>
                  <dt>{roleLabel(role)}</dt>
                  <dd>{ROLE_HELP[role]}</dd>
                </Fragment>
              ))}
            </dl>
          </details>
        </>
      ) : null}

      {can('inviteMember') ? (
        <InviteDialog
          open={inviting}
          onClose={() => setInviting(false)}
          onInvited={(invitation) => {
            setNotice(`Invitation sent to ${invitation.email}.`);
            setError(null);
            load.reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this invitation?"
        confirmLabel="Revoke invitation"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          const invitation = revoking!;
          await unwrap(api.value.team.revokeInvitation({ params: { id: invitation.id } }));
          setNotice(`The invitation to ${invitation.email} is revoked.`);
          load.reload();
        }}
      >
        <p>
          The link sent to <strong>{revoking?.email}</strong> stops working at once. You can invite them again
          later.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this member?"
        confirmLabel="Remove member"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          const member = removing!;
          const { data } = await unwrap(api.value.team.removeMember({ params: { userId: member.userId } }));
          setNotice(
            data.revokedApiKeys === 0
              ? `${member.email} was removed from the team.`
              : `${member.email} was removed from the team, and ${apiKeysText(data.revokedApiKeys)} they made ${data.revokedApiKeys === 1 ? 'was' : 'were'} revoked.`,
          );
          load.reload();
        }}
      >
        <p>
          <strong>{removing?.email}</strong> loses access to this business and its sandbox at once: their
          sessions end. You can invite them again later.
        </p>
        {removing && removing.activeApiKeys > 0 ? (
          <p>
            The {apiKeysText(removing.activeApiKeys)} they made (live and sandbox){' '}
            {removing.activeApiKeys === 1 ? 'is' : 'are'} revoked too: whatever uses{' '}
            {removing.activeApiKeys === 1 ? 'it' : 'them'} stops working.
          </p>
        ) : (
          <p>They made no API key that is still active.</p>
        )}
      </ConfirmDialog>
    </div>
  );
}
