import { contract, unwrap, type finance } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { SOURCE_LABELS } from './labels.js';
import { currencyOf, rangeOf, RANGE_FIELDS, ReportPage } from './report.js';
import { Empty, Link, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney, monthStart } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/**
 * The VAT return of a range of days (the last three months by default): the tax on sales (invoices
 * less credit notes and voids), the tax on purchases (bills), the net due or reclaimable, and the
 * documents behind each figure by their posting date.
 */

/** Where a document of the return is shown in the dashboard, when it is. */
function documentLink(document: finance.VatReturnDocument): string | null {
  const { type, id } = document.source;
  if (type === 'invoice' && allowed('sales.read')) return `/invoices/${id}`;
  if (type === 'credit_note' && allowed('sales.read')) return `/credit-notes/${id}`;
  if (type === 'bill' && allowed('finance.read')) return `/finance/bills/${id}`;
  return null;
}

function Documents(props: {
  id: string;
  title: string;
  documents: finance.VatReturnDocument[];
  net: number;
  tax: number;
  currency: string;
  empty: string;
}) {
  const show = (minor: number) => minorMoney(minor, props.currency);
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.documents.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <ScrollRegion label={props.title}>
          <table class="vat-documents" data-side={props.id}>
            <caption class="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Document</th>
                <th scope="col">Kind</th>
                <th scope="col" class="numeric">
                  Net
                </th>
                <th scope="col" class="numeric">
                  VAT
                </th>
              </tr>
            </thead>
            <tbody>
              {props.documents.map((d, i) => {
                const to = documentLink(d);
                return (
                  <tr key={`${d.entry_id}-${i}`}>
                    <td>{date(d.date)}</td>
                    <td>{to ? <Link to={to}>{d.description}</Link> : d.description}</td>
                    <td>{SOURCE_LABELS[d.source.type]}</td>
                    <td class="numeric">{show(d.net)}</td>
                    <td class="numeric">{show(d.tax)}</td>
                  </tr>
                );
              })}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row" colSpan={3}>
                  Total
                </th>
                <td class="numeric">{show(props.net)}</td>
                <td class="numeric">{show(props.tax)}</td>
              </tr>
            </tfoot>
          </table>
        </ScrollRegion>
      )}
    </section>
  );
}

export default function VatReturn() {
  const query = here.value.query;
  const { start, end } = rangeOf(query, () => monthStart(2));
  const currency = currencyOf(query);
  const request = { start_date: start, end_date: end, currency };
  const load = useLoad(
    async () => unwrap(api.value.finance.books.getVatReturn({ query: request })),
    [start, end, currency],
  );
  return (
    <ReportPage
      title="VAT return"
      filterLabel="VAT return range"
      defaults={{ start_date: start, end_date: end }}
      fields={RANGE_FIELDS}
      load={load}
      actions={
        <ExportButton
          route={contract.finance.books.getVatReturn}
          query={request}
          label="Download CSV"
          what="the VAT return"
        />
      }
    >
      {({ data, documents }) => {
        const output = documents.filter((d) => d.side === 'output');
        const input = documents.filter((d) => d.side === 'input');
        const reclaim = data.net < 0;
        return (
          <>
            <p class="lead">
              VAT posted from {date(data.start_date)} to {date(data.end_date)}, in {data.currency}, each
              document by its posting date. Payments to the tax authority are not part of a return.
            </p>
            <dl class="figures vat-return">
              <div>
                <dt>Output VAT (sales)</dt>
                <dd data-output="">{minorMoney(data.output_tax, data.currency)}</dd>
              </div>
              <div>
                <dt>Input VAT (purchases)</dt>
                <dd data-input="">{minorMoney(data.input_tax, data.currency)}</dd>
              </div>
              <div class={reclaim ? 'reclaim' : 'due'}>
                <dt>{reclaim ? 'Net reclaimable' : 'Net due'}</dt>
                <dd data-net="">{minorMoney(Math.abs(data.net), data.currency)}</dd>
              </div>
            </dl>
            <p class="hint">
              Net sales {minorMoney(data.sales_net, data.currency)}; net purchases{' '}
              {minorMoney(data.purchases_net, data.currency)}.
            </p>
            {documents.length === 0 ? (
              <Empty title="No VAT in this range">
                <p>
                  Issued <Link to="/invoices">invoices</Link> with a tax percent and{' '}
                  <Link to="/finance/bills">bills</Link> with a tax rate post VAT.
                </p>
              </Empty>
            ) : (
              <>
                <Documents
                  id="vat-output"
                  title="Output VAT: sales"
                  documents={output}
                  net={data.sales_net}
                  tax={data.output_tax}
                  currency={data.currency}
                  empty="No sales with VAT in this range."
                />
                <Documents
                  id="vat-input"
                  title="Input VAT: purchases"
                  documents={input}
                  net={data.purchases_net}
                  tax={data.input_tax}
                  currency={data.currency}
                  empty="No purchases with VAT in this range."
                />
              </>
            )}
          </>
        );
      }}
    </ReportPage>
  );
}
