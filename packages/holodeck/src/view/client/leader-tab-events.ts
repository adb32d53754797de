// One server-sent event stream per browser, whatever the number of tabs: browsers allow about
// six connections per host over HTTP/1.1, and a stream held open by every tab would leave the
// seventh tab unable to load anything. The tab holding a Web Lock opens the stream and relays its
// events to the other tabs over a BroadcastChannel; when it closes, the lock passes to a waiting
// tab, which opens the stream in turn. Without Web Locks (an old browser, a page that is not a
// secure context) each tab opens its own stream only while it is visible.
// Framework-free and without imports of the view's pages: reusable by any page of this origin.

/** Options of followLeaderTabEvents. */
export interface LeaderTabEventsOptions {
  /** The event stream's URL, e.g. `/api/events`. */
  url: string;
  /** Names the lock and the channel: pages sharing one stream use the same name. */
  name: string;
  /** The event types relayed (the `event:` field of the stream). */
  events: readonly string[];
  /** Called in every tab for every relayed event, with its `data`. */
  onEvent(type: string, data: string): void;
  /**
   * Called in every tab when a new stream took over from another (the leader tab closed, or the
   * stream reconnected): events in between may have been missed, so redraw from the server.
   */
  onResync?(): void;
}

interface RelayedEvent {
  kind: 'event';
  type: string;
  data: string;
}

interface ResyncMessage {
  kind: 'resync';
}

function isRelayed(value: unknown): value is RelayedEvent | ResyncMessage {
  if (typeof value !== 'object' || value === null || !('kind' in value)) return false;
  if (value.kind === 'resync') return true;
  return (
    value.kind === 'event' &&
    'type' in value &&
    typeof value.type === 'string' &&
    'data' in value &&
    typeof value.data === 'string'
  );
}

/**
 * Opens the stream and hands its events to `deliver`. A `ready` after the first (a reconnection)
 * is a resync; so is the first one when `resyncWhenReady` (a tab taking over from a closed leader):
 * the server marks what changed as seen when a stream starts, so only then is redrawing safe.
 */
function openStream(
  options: LeaderTabEventsOptions,
  deliver: (message: RelayedEvent | ResyncMessage) => void,
  resyncWhenReady: boolean,
): EventSource {
  const source = new EventSource(options.url);
  let readyBefore = false;
  source.addEventListener('ready', () => {
    if (readyBefore || resyncWhenReady) deliver({ kind: 'resync' });
    readyBefore = true;
  });
  for (const type of options.events)
    source.addEventListener(type, (event) => {
      if (event instanceof MessageEvent && typeof event.data === 'string')
        deliver({ kind: 'event', type, data: event.data });
    });
  return source;
}

/** Follows the stream from this tab through the browser's single leader-held connection. */
export function followLeaderTabEvents(options: LeaderTabEventsOptions): void {
  const handle = (message: RelayedEvent | ResyncMessage) => {
    if (message.kind === 'resync') options.onResync?.();
    else options.onEvent(message.type, message.data);
  };
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (typeof BroadcastChannel === 'undefined' || locks === undefined) {
    followWhileVisible(options, handle);
    return;
  }
  const channel = new BroadcastChannel(options.name);
  channel.addEventListener('message', (event) => {
    if (isRelayed(event.data)) handle(event.data);
  });
  const lead = (tookOver: boolean) => {
    const deliver = (message: RelayedEvent | ResyncMessage) => {
      handle(message);
      channel.postMessage(message);
    };
    openStream(options, deliver, tookOver);
  };
  // Held for the life of the tab: the browser releases the lock when the tab closes.
  const forever = () => new Promise<never>(() => {});
  void locks.request(options.name, { ifAvailable: true }, (lock) => {
    if (lock) {
      lead(false);
      return forever();
    }
    // Another tab leads: wait for it to close, then take over. Events may have been missed in
    // between, so every tab redraws from the server.
    void locks.request(options.name, () => {
      lead(true);
      return forever();
    });
    return undefined;
  });
}

/** The fallback: this tab's own stream, closed while the tab is hidden, resynced when shown again. */
function followWhileVisible(
  options: LeaderTabEventsOptions,
  handle: (message: RelayedEvent | ResyncMessage) => void,
): void {
  let source: EventSource | undefined;
  let openedBefore = false;
  const update = () => {
    if (document.visibilityState === 'hidden') {
      source?.close();
      source = undefined;
      return;
    }
    if (source) return;
    source = openStream(options, handle, openedBefore);
    openedBefore = true;
  };
  document.addEventListener('visibilitychange', update);
  update();
}
