import type { FunctionComponent } from 'preact';

/** What every screen receives: the parameters of its path (`/invoices/:id` gives `id`). */
export interface ScreenProps {
  params: Record<string, string>;
}

/** A screen's module, loaded the first time the screen is opened (web/routes.ts names them). */
export type ScreenModule = { default: FunctionComponent<ScreenProps> };
