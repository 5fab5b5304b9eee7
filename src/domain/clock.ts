// Time is injected so tests can move it; production uses the system clock.
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
