// Turn state of one session (docs/design/frontend-mcp.md §8): the current turn, its abort signal, the user
// text, and the per-turn call budget with repeat suppression. Up to 100 turns are remembered,
// so re-beginning a known turn id does not reset its budget.

/** Most turns remembered per session (least recently used dropped). */
export const MAX_TRACKED_TURNS = 100;
/** A turn's counted calls stop this long after its first counted call, in milliseconds. */
export const TURN_WINDOW_MS = 30000;
/** Counted calls per turn across all tools. */
export const MAX_CALLS_PER_TURN_TOTAL = 12;

/** One user turn. */
export interface TurnState {
  readonly id: string;
  /** Sequence number of the turn's latest commit in this session (1 for the first). */
  sequence: number;
  /** The trimmed user text of the latest commit. */
  userText: string;
  /** Aborted by the next beginTurn() or by abortTurn(). */
  controller: AbortController;
  /** When the first counted call happened, in milliseconds since the epoch. */
  firstCallAtMs: number | undefined;
  callCount: number;
  readonly callsPerTool: Map<string, number>;
  /** `<tool name>\u0000<canonical arguments>` of every admitted call. */
  readonly admitted: Set<string>;
}

/** The admission verdict for one call. */
export type Admission = 'admitted' | 'limit' | 'duplicate';

/** The turns of one session. */
export class TurnLedger {
  readonly #turns = new Map<string, TurnState>();
  #current: TurnState | undefined;
  #sequence = 0;

  /** The current turn, if any turn has begun. */
  get current(): TurnState | undefined {
    return this.#current;
  }

  /**
   * Commits a user turn: aborts the previous turn's calls and advances the sequence.
   *
   * @param turnId The host's id of the turn.
   * @param userText The user's committed text (trimmed here).
   * @returns The now current turn.
   */
  begin(turnId: string, userText: string): TurnState {
    this.#current?.controller.abort();
    this.#sequence++;
    const known = this.#turns.get(turnId);
    const turn: TurnState = known ?? {
      id: turnId,
      sequence: 0,
      userText: '',
      controller: new AbortController(),
      firstCallAtMs: undefined,
      callCount: 0,
      callsPerTool: new Map(),
      admitted: new Set(),
    };
    turn.sequence = this.#sequence;
    turn.userText = userText.trim();
    if (turn.controller.signal.aborted) turn.controller = new AbortController();
    this.#turns.delete(turnId);
    this.#turns.set(turnId, turn);
    if (this.#turns.size > MAX_TRACKED_TURNS) this.#turns.delete(this.#turns.keys().next().value as string);
    this.#current = turn;
    return turn;
  }

  /** Aborts the current turn's in-flight calls; later calls of the turn get a fresh signal. */
  abortCurrent(): void {
    const turn = this.#current;
    if (turn === undefined) return;
    turn.controller.abort();
    turn.controller = new AbortController();
  }

  /**
   * Decides whether a call may run, and counts it when admitted. An exact repeat is reported
   * as `duplicate` before the limits, so a repeat is never counted and never looks like a limit.
   *
   * @param turn The current turn.
   * @param toolName The model-visible tool name.
   * @param argsKey Canonical JSON of the arguments.
   * @param maxCallsPerTool The tool's maxCallsPerTurn.
   * @param nowMs The clock, in milliseconds since the epoch.
   * @returns The verdict.
   * @see docs/design/frontend-mcp.md §8, step 5
   */
  admit(turn: TurnState, toolName: string, argsKey: string, maxCallsPerTool: number, nowMs: number): Admission {
    const key = `${toolName}\u0000${argsKey}`;
    if (turn.admitted.has(key)) return 'duplicate';
    if (turn.firstCallAtMs !== undefined && nowMs - turn.firstCallAtMs > TURN_WINDOW_MS) return 'limit';
    if (turn.callCount >= MAX_CALLS_PER_TURN_TOTAL) return 'limit';
    if ((turn.callsPerTool.get(toolName) ?? 0) >= maxCallsPerTool) return 'limit';
    turn.firstCallAtMs ??= nowMs;
    turn.callCount++;
    turn.callsPerTool.set(toolName, (turn.callsPerTool.get(toolName) ?? 0) + 1);
    turn.admitted.add(key);
    return 'admitted';
  }

  /** Aborts the current turn for good (session close). */
  closeAll(): void {
    this.#current?.controller.abort();
    this.#current = undefined;
  }
}
