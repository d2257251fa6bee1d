/**
 * What one running service keeps in memory between requests and jobs (caches, pacing, pooled
 * transports), made with the service by the composition root (`startRuntime`) and reached through
 * `ctx.state` or `deps.state`. Nothing of the kind lives at module level, so two services in one
 * process (the tests run several) or an API beside a worker never share it by accident.
 *
 * A module names each thing it keeps once, as a `slot`, with the function that makes it; the first
 * use in a service makes it.
 */
export interface Slot<T> {
  readonly name: string;
  readonly create: () => T;
}

export const slot = <T>(name: string, create: () => T): Slot<T> => Object.freeze({ name, create });

export class ServiceState {
  private readonly values = new Map<Slot<unknown>, unknown>();

  /** The service's value of `slot`, made on first use. */
  get<T>(slot: Slot<T>): T {
    if (!this.values.has(slot)) this.values.set(slot, slot.create());
    return this.values.get(slot) as T;
  }

  /** Every value made so far (the service stops what holds connections open). */
  made(): unknown[] {
    return [...this.values.values()];
  }
}
