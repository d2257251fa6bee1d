import { contract, hr, unwrap } from '../../../client/index.js';
import { EditDialog, rowActions, useEditing } from '../../components/edit-dialog.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Field, Link, Loading, Select, type Column } from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useDraft, useForm, useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { conflictOn } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import { allEmployees } from './lists.js';
import { byName, fullName } from './people.js';

/** Departments: by name, with their head and head count; added, renamed, given a head and deleted. */

const LIMIT = 50;

function DepartmentForm(props: {
  department?: hr.Department;
  employees: hr.Employee[];
  onSaved: (department: hr.Department) => void;
  onCancel: () => void;
}) {
  const existing = props.department;
  const { draft, bind } = useDraft(() => ({ name: existing?.name ?? '', head: existing?.head ?? '' }));
  const form = useForm();
  // The department's own people first, then everyone else.
  const own = props.employees.filter((e) => existing && e.department_id === existing.id).sort(byName);
  const others = props.employees.filter((e) => !existing || e.department_id !== existing.id).sort(byName);
  const option = (e: hr.Employee) => ({ value: e.id, label: `${fullName(e)}, ${e.position}` });

  const submit = () => {
    const departments = api.value.hr.departments;
    const body = { name: draft.name, head: draft.head || null };
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
    <DialogForm
      form={form}
      submit={existing ? 'Save changes' : 'Add department'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <Field label="Name" autoComplete="off" {...bind('name', form.errors)} required />
      <Select
        label="Head of department"
        {...bind('head', form.errors)}
        options={[{ value: '', label: 'No head' }, ...own.map(option), ...others.map(option)]}
      />
      {props.employees.length === 0 ? (
        <p class="hint">Once employees are added, one of them can head the department.</p>
      ) : null}
    </DialogForm>
  );
}

export default function Departments() {
  const state = useEditing<hr.Department>();
  const list = usePagedList(
    LIMIT,
    (paging) => api.value.hr.departments.listDepartments({ query: paging }),
    (answer) => ({ rows: answer.departments, total: answer.total_count }),
    [],
  );
  // Heads' names, and the people a head is chosen among.
  const employees = useLoad(allEmployees, [list.answer]);
  const names = new Map((employees.data ?? []).map((e) => [e.id, fullName(e)]));

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
    ...rowActions(state, {
      edit: can('updateDepartment'),
      remove: can('deleteDepartment')
        ? {
            label: 'Delete department',
            words: (d) => (
              <p>
                {d.employee_count > 0
                  ? `${d.name} still has employees: move them to another department first, or the service refuses.`
                  : `${d.name} has no employees; it is removed for good.`}
              </p>
            ),
            send: (d) => unwrap(api.value.hr.departments.deleteDepartment({ params: { id: d.id } })),
            reload: list.reload,
          }
        : undefined,
    }),
  ];

  return (
    <>
      <ListPage
        title="Departments"
        export={{ route: contract.hr.departments.listDepartments }}
        create={{
          operation: 'createDepartment',
          label: 'New department',
          onClick: () => {
            state.setNotice(null);
            state.setEditing('new');
          },
        }}
        notice={state.notice}
        list={list}
        empty={{
          title: 'No departments yet',
          canAdd:
            'Start with New department: every employee belongs to one, and leave is planned by department.',
          cannotAdd: 'Departments appear here once someone with permission to add them does so.',
        }}
        table={{ caption: 'Departments', columns, rowKey: (d) => d.id }}
      />
      <EditDialog
        state={state}
        addTitle="New department"
        form={(department) =>
          employees.data || employees.error ? (
            <DepartmentForm
              department={department}
              employees={employees.data ?? []}
              onCancel={state.close}
              onSaved={(saved) => state.saved(saved.name, list.reload)}
            />
          ) : (
            <Loading />
          )
        }
      />
    </>
  );
}
