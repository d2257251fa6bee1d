import { meta } from '../common/metadata.js';

/** Every webhooks route takes an access token or a `full` API key. */
export const webhooksRoute = meta('token', 'Webhooks');
