import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // The leave overlap rule is an exclusion constraint over (employee, date range), which needs
  // btree equality inside a GiST index.
  `CREATE EXTENSION IF NOT EXISTS btree_gist`,
  `CREATE TABLE hr_departments (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    head_id text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE UNIQUE INDEX hr_departments_name_key ON hr_departments (business_id, lower(name)) WHERE deleted_at IS NULL`,
  `CREATE TABLE hr_employees (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    first_name text NOT NULL,
    last_name text NOT NULL,
    email text NOT NULL,
    phone text,
    department_id text NOT NULL,
    position text NOT NULL,
    status text NOT NULL CHECK (status IN ('active', 'inactive', 'on_leave')),
    hire_date date NOT NULL,
    salary bigint CHECK (salary BETWEEN 0 AND 999999999999999),
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, department_id) REFERENCES hr_departments (business_id, id)
  )`,
  `ALTER TABLE hr_departments ADD FOREIGN KEY (business_id, head_id) REFERENCES hr_employees (business_id, id)`,
  `CREATE UNIQUE INDEX hr_employees_email_key ON hr_employees (business_id, lower(email)) WHERE deleted_at IS NULL`,
  // One index per list order and filter, each ending in the page order (newest first, then id).
  `CREATE INDEX hr_employees_list_idx ON hr_employees (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX hr_employees_department_idx ON hr_employees (business_id, department_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX hr_employees_status_idx ON hr_employees (business_id, status, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX hr_employees_hire_date_idx ON hr_employees (business_id, hire_date, id) WHERE deleted_at IS NULL`,
  `CREATE INDEX hr_employees_last_name_idx ON hr_employees (business_id, last_name, id) WHERE deleted_at IS NULL`,
  // Employees per (department, status), kept by the trigger below in the writing transaction, so
  // list totals and department head counts read a handful of rows instead of counting employees.
  `CREATE TABLE hr_employee_counts (
    business_id text NOT NULL,
    department_id text NOT NULL,
    status text NOT NULL,
    employees bigint NOT NULL CHECK (employees >= 0),
    PRIMARY KEY (business_id, department_id, status),
    FOREIGN KEY (business_id, department_id) REFERENCES hr_departments (business_id, id)
  )`,
  `CREATE FUNCTION hr_employee_counts_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     was boolean := TG_OP <> 'INSERT' AND OLD.deleted_at IS NULL;
     now_counted boolean := TG_OP <> 'DELETE' AND NEW.deleted_at IS NULL;
   BEGIN
     IF was AND now_counted AND OLD.department_id = NEW.department_id AND OLD.status = NEW.status THEN
       RETURN NULL;
     END IF;
     -- Two counter rows are changed in key order, so two opposite moves cannot deadlock.
     IF was AND (NOT now_counted OR (OLD.department_id, OLD.status) < (NEW.department_id, NEW.status)) THEN
       UPDATE hr_employee_counts SET employees = employees - 1
        WHERE business_id = OLD.business_id AND department_id = OLD.department_id AND status = OLD.status;
       was := false;
     END IF;
     IF now_counted THEN
       INSERT INTO hr_employee_counts AS c (business_id, department_id, status, employees)
       VALUES (NEW.business_id, NEW.department_id, NEW.status, 1)
       ON CONFLICT (business_id, department_id, status) DO UPDATE SET employees = c.employees + 1;
     END IF;
     IF was THEN
       UPDATE hr_employee_counts SET employees = employees - 1
        WHERE business_id = OLD.business_id AND department_id = OLD.department_id AND status = OLD.status;
     END IF;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER hr_employees_counts AFTER INSERT OR DELETE OR UPDATE OF department_id, status, deleted_at
     ON hr_employees FOR EACH ROW EXECUTE FUNCTION hr_employee_counts_follow()`,
  `CREATE TABLE hr_leaves (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    employee_id text NOT NULL,
    type text NOT NULL CHECK (type IN ('annual', 'sick', 'unpaid', 'parental', 'other')),
    start_date date NOT NULL,
    end_date date NOT NULL,
    days integer NOT NULL CHECK (days >= 0),
    reason text,
    status text NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'cancelled')),
    status_reason text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, employee_id) REFERENCES hr_employees (business_id, id),
    CONSTRAINT hr_leaves_dates_check CHECK (end_date >= start_date),
    -- Two pending or approved leaves of one employee never share a day, whatever the concurrency.
    CONSTRAINT hr_leaves_no_overlap EXCLUDE USING gist (
      business_id WITH =,
      employee_id WITH =,
      daterange(start_date, end_date, '[]') WITH &&
    ) WHERE (status IN ('pending', 'approved') AND deleted_at IS NULL)
  )`,
  `CREATE INDEX hr_leaves_list_idx ON hr_leaves (business_id, start_date DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX hr_leaves_employee_idx ON hr_leaves (business_id, employee_id, start_date DESC, id DESC) WHERE deleted_at IS NULL`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
