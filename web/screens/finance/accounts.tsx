import { PageHeader } from '../../components/ui.js';

export default function Screen() {
  return <PageHeader title="Chart of accounts" />;
}
