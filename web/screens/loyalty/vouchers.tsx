import { useState } from 'preact/hooks';
import { BmsApiError, unwrap, type loyalty } from '../../../client/index.js';
import {
  Badge,
  Button,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  PageHeader,
} from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

/**
 * A voucher checked at the counter: the code typed (kept in the URL), whether it is good now, what it
 * is for and whose it is; fulfilled from the redemptions list.
 */

/** `k7q2 m9xd 4hpa` as the service writes it: `K7Q2-M9XD-4HPA`. */
function normalize(code: string): string {
  const plain = code.toUpperCase().replace(/[^0-9A-Z]/g, '');
  return plain.length === 12 ? plain.match(/.{4}/g)!.join('-') : code.trim().toUpperCase();
}

type Answer = { found: loyalty.VoucherVerification } | { missing: string } | null;

function Result(props: { answer: loyalty.VoucherVerification }) {
  const v = props.answer;
  return (
    <section class={`panel voucher ${v.valid ? 'valid' : 'invalid'}`} aria-labelledby="voucher-result">
      <h2 id="voucher-result">{v.valid ? 'Valid: hand over the reward' : 'Not valid'}</h2>
      <dl class="facts">
        <dt>Code</dt>
        <dd>
          <code>{v.voucherCode}</code>
        </dd>
        <dt>Reward</dt>
        <dd>{v.rewardName}</dd>
        <dt>Member</dt>
        <dd>{v.memberName}</dd>
        <dt>Status</dt>
        <dd>
          <Badge value={v.status} />
        </dd>
        <dt>Redeemed</dt>
        <dd>{dateTime(v.redeemedAt)}</dd>
        <dt>Expires</dt>
        <dd>{dateTime(v.expiresAt)}</dd>
      </dl>
      {v.valid ? (
        <p>
          Then mark it fulfilled in <Link to="/loyalty/redemptions?status=pending">pending redemptions</Link>,
          so it cannot be used twice.
        </p>
      ) : (
        <p class="hint">
          {v.status === 'pending'
            ? 'It expired before it was used.'
            : v.status === 'fulfilled'
              ? 'It was already used.'
              : `It is ${v.status}.`}
        </p>
      )}
    </section>
  );
}

export default function Vouchers(_props: ScreenProps) {
  const code = here.value.query.get('code') ?? '';
  const [text, setText] = useState(code);
  const check = useLoad<Answer>(async () => {
    if (!code) return null;
    try {
      return {
        found: (await unwrap(api.value.loyalty.redemptions.verifyVoucher({ params: { code } }))).data,
      };
    } catch (err) {
      if (err instanceof BmsApiError && err.status === 404) return { missing: code };
      throw err;
    }
  }, [code]);
  const answer = check.data;
  const missing = answer && 'missing' in answer ? `No voucher has the code ${answer.missing}.` : undefined;
  return (
    <>
      <PageHeader title="Vouchers" />
      <p class="lead">Check a voucher a member shows before handing over the reward.</p>
      <form
        class="inline-form panel"
        role="search"
        aria-label="Verify a voucher"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const next = normalize(text);
          setText(next);
          if (next === code) check.reload();
          else navigate(withQuery({ code: next }));
        }}
      >
        <Field
          label="Voucher code"
          name="code"
          value={text}
          onValue={setText}
          placeholder="K7Q2-M9XD-4HPA"
          autoComplete="off"
          error={text.length > 20 ? 'A code has 12 letters and digits' : missing}
          hint="12 letters and digits; dashes and spaces do not matter"
        />
        <Button type="submit" kind="primary" disabled={!text.trim() || text.length > 20}>
          Verify
        </Button>
      </form>
      {check.error ? (
        <ErrorMessage message={check.error} onRetry={check.reload} />
      ) : code && check.loading && !answer ? (
        <Loading />
      ) : answer && 'found' in answer ? (
        <Result answer={answer.found} />
      ) : !code ? (
        <Notice>Type the code from the member’s voucher or email and press Verify.</Notice>
      ) : null}
    </>
  );
}
