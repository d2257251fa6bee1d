import { PageHeader } from '../../components/ui.js';

export default function Screen() {
  return <PageHeader title="Leave calendar" />;
}
