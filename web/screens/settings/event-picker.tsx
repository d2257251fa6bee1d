import { useId } from 'preact/hooks';
import { EVENT_NAMES, type EventName } from '../../../client/index.js';
import { Button } from '../../components/ui.js';
import { FIELD_MESSAGES } from '../../lib/messages.js';

/** The events a webhook may subscribe to, grouped by resource (`customer`, `invoice`, ...). */
const GROUPS: [string, EventName[]][] = (() => {
  const groups = new Map<string, EventName[]>();
  for (const name of EVENT_NAMES) {
    const resource = name.split('.')[0]!;
    groups.set(resource, [...(groups.get(resource) ?? []), name]);
  }
  return [...groups];
})();

const title = (resource: string) => resource.charAt(0).toUpperCase() + resource.slice(1);

/** Checkboxes of every event name, a group per resource; the error (none chosen, say) beside them. */
export function EventPicker(props: {
  value: EventName[];
  onValue: (events: EventName[]) => void;
  error?: string;
}) {
  const id = useId();
  const chosen = new Set(props.value);
  const toggle = (name: EventName, on: boolean) =>
    props.onValue(EVENT_NAMES.filter((n) => (n === name ? on : chosen.has(n))));
  return (
    <fieldset
      class={`events${props.error ? ' invalid' : ''}`}
      aria-describedby={props.error ? `${id}-error` : `${id}-hint`}
    >
      <legend>Events to send</legend>
      <p class="hint" id={`${id}-hint`}>
        {chosen.size === 0
          ? 'No event chosen yet.'
          : `${chosen.size} of ${EVENT_NAMES.length} events chosen.`}{' '}
        <Button class="button link" onClick={() => props.onValue([...EVENT_NAMES])}>
          Select all
        </Button>{' '}
        <Button class="button link" onClick={() => props.onValue([])}>
          Clear
        </Button>
      </p>
      <div class="event-groups">
        {GROUPS.map(([resource, names]) => (
          <div key={resource} class="event-group" role="group" aria-labelledby={`${id}-${resource}`}>
            <h3 id={`${id}-${resource}`}>{title(resource)}</h3>
            {names.map((name) => (
              <label key={name} class="check">
                <input
                  type="checkbox"
                  name="events"
                  value={name}
                  checked={chosen.has(name)}
                  onChange={(e) => toggle(name, e.currentTarget.checked)}
                />{' '}
                <code>{name}</code>
              </label>
            ))}
          </div>
        ))}
      </div>
      {props.error ? (
        <small id={`${id}-error`} class="error" role="alert">
          {props.error}
        </small>
      ) : null}
    </fieldset>
  );
}

/** The catalogue's "add at least one", said of events. */
export const eventsMessage = (message: string | undefined) =>
  message === FIELD_MESSAGES.atLeastItems(1) ? 'Choose at least one event to send.' : message;
