/** Injected so tests can move time; repositories stamp created_at/updated_at from it. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();
