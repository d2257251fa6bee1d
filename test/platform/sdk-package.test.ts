import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);

describe('the SDK as a package', () => {
  it('is importable by package name through package.json exports, in plain Node', async () => {
    const script = `
      const { createClient, unwrap, BmsApiError, contract } = await import('business-management-service/client');
      const client = createClient({ baseUrl: 'http://127.0.0.1:1', accessToken: 'x' });
      console.log(JSON.stringify({
        createInvoice: typeof client.general.invoices.createInvoice,
        unwrap: typeof unwrap,
        error: new BmsApiError(404, { error: { code: 'NOT_FOUND', message: 'gone', status: 404 } }).code,
        routes: Object.keys(contract.general.invoices).length,
      }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({
      createInvoice: 'function',
      unwrap: 'function',
      error: 'NOT_FOUND',
      routes: 8,
    });
  });
});
