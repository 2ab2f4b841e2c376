// Remembers the most recent call ids of a session so a replayed call is ignored (§8 step 1).

/** How many call ids a session remembers. */
export const REMEMBERED_CALL_IDS = 500;

/** A bounded first-in-first-out set of call ids. */
export class CallIdMemory {
  readonly #ids = new Set<string>();

  /**
   * Records a call id.
   *
   * @param callId The host's id of the model's tool call.
   * @returns True when the id was already among the last 500 recorded.
   */
  seen(callId: string): boolean {
    if (this.#ids.has(callId)) return true;
    this.#ids.add(callId);
    // Sets iterate in insertion order, so the first entry is the oldest.
    if (this.#ids.size > REMEMBERED_CALL_IDS) this.#ids.delete(this.#ids.values().next().value as string);
    return false;
  }
}
