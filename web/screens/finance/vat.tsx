import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { amountAdvice, minorText, priceMinor } from '../../lib/lines.js';
import { useNotice } from '../../components/outcome.js';
import {
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Notice,
  PageHeader,
  Select,
} from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { RecordUnavailable } from '../../components/record.js';
import { currencyOptions, useBaseCurrency } from '../../lib/currencies.js';
import { date, dateTime, minorMoney, percent, today } from '../../lib/format.js';
import { useDraft, useForm, useLoad } from '../../lib/forms.js';
import { NOT_WITHIN_HORIZON, withinHorizon } from '../../lib/messages.js';
import { summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';

/**
 * The VAT registration threshold: set up, the revenue of the window against it, the projected
 * crossing date, changed, and marked registered once the business is.
 */

const PERIOD_LABELS: Record<finance.PeriodType, string> = {
  annual: 'Calendar year',
  quarterly: 'Calendar quarter',
  rolling_12_months: 'Rolling 12 months',
};

interface Draft {
  country: string;
  thresholdAmount: string;
  currency: string;
  periodType: string;
  alertAtPercentage: string;
  alertEmail: string;
}

function ThresholdForm(props: {
  existing?: finance.VatThreshold;
  baseCurrency: string;
  onSaved: (threshold: finance.VatThreshold) => void;
  onCancel?: () => void;
}) {
  const { existing } = props;
  const { draft, set, bind } = useDraft<Draft>(() => ({
    country: existing?.country ?? '',
    thresholdAmount: existing ? minorText(existing.thresholdAmount, existing.currency) : '',
    currency: existing?.currency ?? props.baseCurrency,
    periodType: existing?.periodType ?? 'rolling_12_months',
    alertAtPercentage: String(existing?.alertAtPercentage ?? 80),
    alertEmail: existing?.alertEmail ?? '',
  }));
  const [local, setLocal] = useState<string | undefined>(undefined);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const advice = amountAdvice(draft.thresholdAmount, draft.currency);
    setLocal(advice);
    if (advice) return;
    const minor = priceMinor(draft.thresholdAmount, draft.currency);
    const body: Record<string, unknown> = {
      country: draft.country.trim().toUpperCase(),
      thresholdAmount: minor === null ? undefined : Number(minor),
      currency: draft.currency,
      periodType: draft.periodType,
      alertAtPercentage: draft.alertAtPercentage.trim() === '' ? undefined : Number(draft.alertAtPercentage),
      alertEmail: draft.alertEmail.trim(),
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const vat = api.value.finance.vat;
    const saving = existing
      ? form.submit(finance.UpdateVatThresholdBodySchema, body, (value) =>
          unwrap(vat.updateVatThreshold({ params: { publicId: existing.publicId }, body: value })),
        )
      : form.submit(finance.CreateVatThresholdBodySchema, body, (value) =>
          unwrap(vat.createVatThreshold({ body: value })),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved.data);
    });
  };
  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate class="vat-form">
      <div class="form-row">
        <Field label="Country" {...bind('country', e)} hint="Two-letter code, e.g. GB" required />
        <Select
          label="Window"
          {...bind('periodType', e)}
          options={finance.PERIOD_TYPES.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
        />
      </div>
      <div class="form-row">
        <Field
          label={`Threshold in ${draft.currency}`}
          name="thresholdAmount"
          inputMode="decimal"
          hint="The revenue at which registration becomes compulsory, e.g. 90000"
          value={draft.thresholdAmount}
          onValue={set('thresholdAmount')}
          error={local ?? e.thresholdAmount}
          required
        />
        <Select label="Currency" {...bind('currency', e)} options={currencyOptions()} />
      </div>
      <div class="form-row">
        <Field
          label="Alert at (percent)"
          {...bind('alertAtPercentage', e)}
          type="number"
          min={1}
          max={100}
          hint="An email is sent once when revenue reaches this share, and again at 100%."
        />
        <Field label="Alert email" {...bind('alertEmail', e)} type="email" required />
      </div>
      <ErrorMessage message={local ? 'Check the highlighted field.' : summaryOf(form)} />
      <div class="dialog-actions">
        {props.onCancel ? <Button onClick={props.onCancel}>Cancel</Button> : null}
        <Button type="submit" kind="primary" busy={form.busy}>
          {existing ? 'Save changes' : 'Set up threshold'}
        </Button>
      </div>
    </form>
  );
}

function RegisterForm(props: {
  threshold: finance.VatThreshold;
  onSaved: (threshold: finance.VatThreshold) => void;
  onCancel: () => void;
}) {
  const { draft, bind } = useDraft(() => ({ registrationDate: today(), registrationNumber: '' }));
  const form = useForm();
  const submit = () => {
    void form
      .submit(finance.MarkRegisteredBodySchema, draft, (body) =>
        unwrap(
          api.value.finance.vat.markVatRegistered({ params: { publicId: props.threshold.publicId }, body }),
        ),
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.data);
      });
  };
  return (
    <DialogForm form={form} submit="Mark registered" onCancel={props.onCancel} onSubmit={submit}>
      <p>Once registered, no more threshold alerts are sent.</p>
      <div class="form-row">
        <Field label="Registration date" type="date" {...bind('registrationDate', form.errors)} required />
        <Field label="VAT number" {...bind('registrationNumber', form.errors)} required />
      </div>
    </DialogForm>
  );
}

export default function Vat() {
  const base = useBaseCurrency();
  const load = useLoad(async () => (await unwrap(api.value.finance.vat.getVatThreshold())).data, []);
  const [editing, setEditing] = useState(false);
  const [registering, setRegistering] = useState(false);
  const { notice, setNotice, opens } = useNotice();

  if (load.error || load.data === undefined || !base.loaded) {
    return <RecordUnavailable load={load} title="VAT threshold" />;
  }
  const vat = load.data;

  if (vat === null) {
    return (
      <>
        <PageHeader title="VAT threshold" />
        {notice ? <Notice kind="success">{notice}</Notice> : null}
        <Empty title="No threshold is set up">
          <p>
            Set the registration threshold of your country to follow how much of it your invoiced revenue has
            reached, when it is likely to be crossed, and to be emailed before it is.
          </p>
        </Empty>
        {can('createVatThreshold') ? (
          <section class="panel" aria-labelledby="vat-setup">
            <h2 id="vat-setup">Set up the threshold</h2>
            <ThresholdForm
              baseCurrency={base.currency}
              onSaved={() => {
                setNotice('The threshold is set up.');
                load.reload();
              }}
            />
          </section>
        ) : (
          <p class="muted">Someone with permission to change finance settings can set it up.</p>
        )}
      </>
    );
  }

  const reached = Math.min(100, Math.max(0, vat.percentageReached));
  return (
    <>
      <PageHeader title="VAT threshold">
        {can('updateVatThreshold') ? <Button onClick={opens(setEditing)}>Edit threshold</Button> : null}
        {!vat.registered && can('markVatRegistered') ? (
          <Button kind="primary" onClick={opens(setRegistering)}>
            Mark registered
          </Button>
        ) : null}
      </PageHeader>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {vat.registered ? (
        <Notice>
          <span data-registered="">
            Registered for VAT on {date(vat.registrationDate)}
            {vat.registrationNumber ? `, number ${vat.registrationNumber}` : ''}. No more alerts are sent.
          </span>
        </Notice>
      ) : null}
      <section class="panel vat-progress" aria-labelledby="vat-progress">
        <h2 id="vat-progress">Progress</h2>
        <p>
          <span class="figure" data-current="">
            {minorMoney(vat.currentRevenue, vat.currency)}
          </span>{' '}
          of {minorMoney(vat.thresholdAmount, vat.currency)} ({PERIOD_LABELS[vat.periodType].toLowerCase()}),{' '}
          <strong data-percent="">{percent(vat.percentageReached / 100)}</strong> reached.
        </p>
        <div
          class="progress"
          role="progressbar"
          aria-label="Share of the VAT threshold reached"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(reached)}
          aria-valuetext={percent(vat.percentageReached / 100)}
        >
          <span style={{ width: `${reached}%` }} />
        </div>
        <dl class="facts">
          <dt>Projected crossing</dt>
          <dd data-crossing="">
            {withinHorizon(vat.projectedCrossingDate, today())
              ? date(vat.projectedCrossingDate)
              : vat.projectedCrossingDate
                ? NOT_WITHIN_HORIZON
                : vat.registered
                  ? 'Registered'
                  : vat.percentageReached >= 100
                    ? 'Already reached'
                    : vat.currentRevenue === 0
                      ? 'No revenue yet'
                      : 'Not within the window at the current pace'}
          </dd>
          <dt>Alert at</dt>
          <dd>
            {vat.alertAtPercentage}% to {vat.alertEmail}
          </dd>
          <dt>Country</dt>
          <dd>{vat.country}</dd>
          <dt>Last changed</dt>
          <dd>{dateTime(vat.updatedAt)}</dd>
        </dl>
        <p class="hint">The projection assumes the average daily revenue of the last 90 days continues.</p>
      </section>
      <Dialog title="Edit the VAT threshold" open={editing} onClose={() => setEditing(false)}>
        <ThresholdForm
          existing={vat}
          baseCurrency={base.currency}
          onCancel={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            setNotice('The threshold was saved.');
            load.reload();
          }}
        />
      </Dialog>
      <Dialog
        title="Mark the business VAT-registered"
        open={registering}
        onClose={() => setRegistering(false)}
      >
        <RegisterForm
          threshold={vat}
          onCancel={() => setRegistering(false)}
          onSaved={() => {
            setRegistering(false);
            setNotice('Marked registered.');
            load.reload();
          }}
        />
      </Dialog>
    </>
  );
}
