/**
 * The settings cache's generation number, shared by every API instance: clearing the cache bumps it,
 * and each instance drops its cached documents when it sees a new number.
 */
export interface GenerationStore {
  current(): Promise<number>;
  /** Increments and returns the new generation. */
  bump(): Promise<number>;
}
