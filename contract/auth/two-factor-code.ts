import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/** A code of the second step: six digits from the authenticator app, or a recovery code. */
export const TwoFactorCodeSchema = extendApi(z.string().trim().min(6).max(40), {
  description:
    'Six digits from the authenticator app (RFC 6238, 30-second steps; the step before and after are ' +
    'accepted, each code once), or one of the recovery codes (`xxxx-xxxx-xxxx-xxxx`, each once; spaces, ' +
    'dashes and case are ignored).',
  example: '492039',
});
