import type { Config } from '../config.js';

/**
 * What one running service keeps in memory between requests and jobs (caches, pacing, pooled
 * transports), made with the service by the composition root (`startRuntime`) and reached through
 * `ctx.state` or `deps.state`. Nothing of the kind lives at module level, so two services in one
 * process (the tests run several) or an API beside a worker never share it by accident.
 *
 * A module names each thing it keeps once, as a `slot`, with the function that makes it from the
 * service's configuration; the first use in a service makes it.
 */
export interface Slot<T> {
  readonly name: string;
  readonly create: (config: Readonly<Config>) => T;
}

export const slot = <T>(name: string, create: (config: Readonly<Config>) => T): Slot<T> =>
  Object.freeze({ name, create });

export class ServiceState {
  private readonly values = new Map<Slot<unknown>, unknown>();

  constructor(private readonly config: Readonly<Config>) {}

  /** The service's value of `slot`, made on first use. */
  get<T>(slot: Slot<T>): T {
    if (!this.values.has(slot)) this.values.set(slot, slot.create(this.config));
    return this.values.get(slot) as T;
  }
}
