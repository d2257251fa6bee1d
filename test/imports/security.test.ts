import { contract } from '../../client/index.js';
import { registerBusiness, uniqueEmail } from '../support/business.js';
import { createDepartment } from '../support/hr.js';
import { uniqueSku } from '../support/general.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

/**
 * A request whose body is the CSV text itself: the checks send a string body as `text/csv` (the
 * contract types the body as the form's `File`, which the checks do not build).
 */
const csv = (text: string) => ({ body: text }) as never;

/**
 * The CSV imports behind the shared per-route checks: credentials, kinds of credential, the sandbox
 * twin, and nothing changed after a refusal. Each request is a one-row file (sent as `text/csv`).
 */
describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.imports,
  routes: (route) => [
    route(contract.imports.importCustomers, () =>
      Promise.resolve(csv(`name,email\nAda,${uniqueEmail('import')}\n`)),
    ),
    route(contract.imports.importProducts, () =>
      Promise.resolve(csv(`name,sku,price\nBeans,${uniqueSku()},12.5\n`)),
    ),
    route(contract.imports.importVendors, () =>
      Promise.resolve(csv(`name,email\nAcme,${uniqueEmail('vendor')}\n`)),
    ),
    route(contract.imports.importEmployees, async (t) => {
      const department = await createDepartment(t.client);
      return csv(
        'first_name,last_name,email,department_id,position,hire_date\n' +
          `Grace,Hopper,${uniqueEmail('staff')},${department.id},Engineer,2024-03-01\n`,
      );
    }),
    route(contract.imports.importExchangeRates, () =>
      Promise.resolve(csv('date,currency,rate\n2026-11-02,EUR,1.05\n')),
    ),
    route(contract.imports.importHolidays, () =>
      Promise.resolve(csv('date,name\n2026-12-25,Christmas Day\n')),
    ),
  ],
});
