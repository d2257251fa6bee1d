import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { ConfirmButton } from '../../components/confirm.js';
import { allEmployees } from './lists.js';
import { byName, fullName } from './people.js';
import {
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  PageHeader,
  Select,
  Table,
  type Column,
} from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { pageOf, pageQuery } from '../../lib/lists.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import { PagedList } from '../../components/paged-list.js';

/** Departments: by name, with their head and head count; added, renamed, given a head and deleted. */

const LIMIT = 50;

function DepartmentForm(props: {
  department?: hr.Department;
  employees: hr.Employee[];
  onSaved: (department: hr.Department) => void;
  onCancel: () => void;
}) {
  const existing = props.department;
  const [name, setName] = useState(existing?.name ?? '');
  const [head, setHead] = useState(existing?.head ?? '');
  const form = useForm();
  // The department's own people first, then everyone else.
  const own = props.employees.filter((e) => existing && e.department_id === existing.id).sort(byName);
  const others = props.employees.filter((e) => !existing || e.department_id !== existing.id).sort(byName);
  const option = (e: hr.Employee) => ({ value: e.id, label: `${fullName(e)}, ${e.position}` });

  const submit = (event: Event) => {
    event.preventDefault();
    const departments = api.value.hr.departments;
    const body = { name, head: head || null };
    const saving = existing
      ? form.submit(hr.UpdateDepartmentBodySchema, body, (value) =>
          conflictOn(
            'name',
            unwrap(departments.updateDepartment({ params: { id: existing.id }, body: value })),
          ).then((r) => r.department),
        )
      : form.submit(hr.CreateDepartmentBodySchema, body, (value) =>
          conflictOn('name', unwrap(departments.createDepartment({ body: value }))).then((r) => r.department),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <Field
        label="Name"
        name="name"
        autoComplete="off"
        value={name}
        onValue={setName}
        error={form.errors.name}
        required
      />
      <Select
        label="Head of department"
        name="head"
        value={head}
        options={[{ value: '', label: 'No head' }, ...own.map(option), ...others.map(option)]}
        onValue={setHead}
        error={form.errors.head}
      />
      {props.employees.length === 0 ? (
        <p class="hint">Once employees are added, one of them can head the department.</p>
      ) : null}
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          {existing ? 'Save changes' : 'Add department'}
        </Button>
      </div>
    </form>
  );
}

export default function Departments() {
  const page = pageOf(here.value.query);
  const [editing, setEditing] = useState<hr.Department | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useLoad(
    () => unwrap(api.value.hr.departments.listDepartments({ query: { ...pageQuery(page, LIMIT) } })),
    [page],
  );
  // Heads' names, and the people a head is chosen among.
  const employees = useLoad(allEmployees, [list.data]);
  const names = new Map((employees.data ?? []).map((e) => [e.id, fullName(e)]));
  const canEdit = can('updateDepartment');
  const canDelete = can('deleteDepartment');

  const columns: Column<hr.Department>[] = [
    { label: 'Name', render: (d) => d.name },
    {
      label: 'Head',
      render: (d) =>
        d.head ? <Link to={`/hr/employees/${d.head}`}>{names.get(d.head) ?? 'View the head'}</Link> : '—',
    },
    {
      label: 'Employees',
      numeric: true,
      render: (d) => (
        <Link
          to={`/hr/employees?department_id=${encodeURIComponent(d.id)}`}
          aria-label={`${number(d.employee_count)} employee${d.employee_count === 1 ? '' : 's'} in ${d.name}`}
        >
          {number(d.employee_count)}
        </Link>
      ),
    },
    { label: 'Added', render: (d) => date(d.created_at) },
  ];
  if (canEdit || canDelete) {
    columns.push({
      label: 'Actions',
      render: (d) => (
        <div class="row-actions">
          {canEdit ? (
            <Button aria-label={`Edit ${d.name}`} onClick={() => setEditing(d)}>
              Edit
            </Button>
          ) : null}
          {canDelete ? (
            <ConfirmButton
              label="Delete"
              title={`Delete ${d.name}?`}
              confirmLabel="Delete department"
              onConfirm={async () => {
                await unwrap(api.value.hr.departments.deleteDepartment({ params: { id: d.id } }));
                setNotice(`${d.name} was deleted.`);
                list.reload();
              }}
            >
              <p>
                {d.employee_count > 0
                  ? `${d.name} still has employees: move them to another department first, or the service refuses.`
                  : `${d.name} has no employees; it is removed for good.`}
              </p>
            </ConfirmButton>
          ) : null}
        </div>
      ),
    });
  }

  return (
    <>
      <PageHeader title="Departments">
        <ExportButton route={contract.hr.departments.listDepartments} />
        {can('createDepartment') ? (
          <Button
            kind="primary"
            onClick={() => {
              setNotice(null);
              setEditing('new');
            }}
          >
            New department
          </Button>
        ) : null}
      </PageHeader>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.departments, total: list.data.total_count }}
        page={page}
        size={LIMIT}
        empty={{
          title: 'No departments yet',
          children: (
            <>
              <p>
                {can('createDepartment')
                  ? 'Start with New department: every employee belongs to one, and leave is planned by department.'
                  : 'Departments appear here once someone with permission to add them does so.'}
              </p>
            </>
          ),
        }}
      >
        {(rows) => (
          <>
            <Table caption="Departments" columns={columns} rows={rows} rowKey={(d) => d.id} />
          </>
        )}
      </PagedList>
      <Dialog
        title={editing === 'new' ? 'New department' : editing ? `Edit ${editing.name}` : 'Department'}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {employees.data || employees.error ? (
          <DepartmentForm
            key={editing === 'new' ? 'new' : editing?.id}
            department={editing === 'new' || editing === null ? undefined : editing}
            employees={employees.data ?? []}
            onCancel={() => setEditing(null)}
            onSaved={(department) => {
              setNotice(
                editing === 'new' ? `${department.name} was added.` : `${department.name} was saved.`,
              );
              setEditing(null);
              list.reload();
            }}
          />
        ) : (
          <Loading />
        )}
      </Dialog>
    </>
  );
}
