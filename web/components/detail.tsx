import type { Load } from '../lib/forms.js';
import { ErrorMessage, Link, Loading, PageHeader } from './ui.js';

/**
 * A detail screen whose item is not there: loading, or the refusal under the screen's `title` with a
 * retry and a link `back` to its list.
 */
export function NotLoaded(props: {
  title: string;
  load: Pick<Load<unknown>, 'error' | 'reload'>;
  back: { to: string; label: string };
}) {
  const { load } = props;
  if (!load.error) return <Loading />;
  return (
    <>
      <PageHeader title={props.title} />
      <ErrorMessage message={load.error} onRetry={load.reload} />
      <p>
        <Link to={props.back.to}>{props.back.label}</Link>
      </p>
    </>
  );
}
