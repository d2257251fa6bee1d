import { useId } from 'preact/hooks';
import { exportCsv } from '../../client/index.js';
import { session } from '../lib/session.js';
import { Button } from './ui.js';
import { fileNameOf, save } from '../lib/download.js';
import { useAction } from '../lib/action.js';

/**
 * "Export CSV" on every list (docs/decisions.md D155): every item the list's filters and order select,
 * all pages at once, written by the service; the import dialog is in csv-import.tsx, loaded only by
 * the lists that import.
 */

/** A list operation of the contract, as `exportCsv` takes it. */
type ListRoute = Parameters<typeof exportCsv>[1];
type ExportRequest<R extends ListRoute> = NonNullable<Parameters<typeof exportCsv<R>>[2]>;

/** The list's last path segment, as the service names its file: `customers`. */
const listName = (route: ListRoute): string =>
  route.path
    .split('/')
    .filter((part) => part && !part.startsWith(':'))
    .at(-1) ?? 'export';

/**
 * "Export CSV": every item the list's `query` selects (its filters and sort; paging is the service's),
 * fetched through the SDK and saved as the file the service names.
 */
export function ExportButton<R extends ListRoute>(
  props: { route: R; query?: ExportRequest<R>['query']; params?: ExportRequest<R>['params'] } & {
    /** What the list holds, when the page has several lists: "Export CSV of the invoices". */
    what?: string;
    /** The button's words when not "Export CSV" (a report's "Download CSV"). */
    label?: string;
  },
) {
  const exporting = useAction();
  const { busy, error } = exporting;
  const id = useId();
  const run = () => {
    const current = session.value;
    if (!current) return;
    const options = {
      baseUrl: location.origin,
      accessToken: current.accessToken,
      environment: current.environment,
    };
    void exporting.run(async () => {
      const response = await exportCsv(options, props.route, { query: props.query, params: props.params });
      save(await response.blob(), fileNameOf(response.headers, `${listName(props.route)}.csv`));
    });
  };
  return (
    <span class="export">
      <Button busy={busy} onClick={run} aria-describedby={error ? id : undefined}>
        {busy ? <span class="spinner" aria-hidden="true" /> : null}
        {props.label ?? 'Export CSV'}
        {props.what ? <span class="visually-hidden"> of {props.what}</span> : null}
      </Button>
      {error ? (
        <span id={id} class="error" role="alert">
          The export failed: {error}
        </span>
      ) : null}
    </span>
  );
}
