/** What every recorded request of a fake has, whatever its wire protocol. */
export interface LoggedRequest<Kind extends string> {
  /** 1-based arrival order over all requests. */
  sequence: number;
  kind: Kind | 'unexpected';
  reason: string;
}

/**
 * The recordings of a fake server: every request in arrival order, and one list per kind (the
 * scripted answers, the auxiliary ones, the unexpected ones), so that a test can assert on exactly
 * the requests it cares about.
 */
export class RequestLog<Kind extends string, Recorded extends LoggedRequest<Kind>> {
  private everything: Recorded[] = [];
  private byKind = new Map<Kind | 'unexpected', Recorded[]>();

  constructor(private readonly onRequest?: (request: Recorded) => void) {}

  get all(): readonly Recorded[] {
    return this.everything;
  }

  /** The requests of one kind, in arrival order. */
  of(kind: Kind | 'unexpected'): readonly Recorded[] {
    return this.list(kind);
  }

  /** Records a request; `build` receives its sequence number. */
  add(build: (sequence: number) => Recorded): Recorded {
    const recorded = build(this.everything.length + 1);
    this.everything.push(recorded);
    this.list(recorded.kind).push(recorded);
    this.onRequest?.(recorded);
    return recorded;
  }

  /** Lists a request that was answered as planned but then failed as unexpected too. */
  alsoUnexpected(recorded: Recorded, reason: string): void {
    this.list('unexpected').push({ ...recorded, kind: 'unexpected', reason });
  }

  clear(): void {
    this.everything = [];
    this.byKind = new Map();
  }

  private list(kind: Kind | 'unexpected'): Recorded[] {
    let list = this.byKind.get(kind);
    if (list === undefined) {
      list = [];
      this.byKind.set(kind, list);
    }
    return list;
  }
}
