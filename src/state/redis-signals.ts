// Session signals between the replicas that share one Redis, over pub/sub: a 2025-era client's
// notifications/cancelled, which may reach another replica than the one running the request, and a session's
// DELETE, which must end the live transport (and its GET stream) another replica holds. Published on the store's
// connection; received on a dedicated subscriber connection (a subscribed connection may send nothing else),
// opened on first use, so only HTTP servers pay for it. Best effort, as pub/sub is: a replica whose subscriber is
// reconnecting misses what is published meanwhile.
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../logger.js';
import type { SessionSignal } from './store.js';

/** The channel: per database, so two deployments sharing one Redis (pub/sub ignores SELECT) hear only their own. */
export function signalChannel(db: number): string {
  return `ac:signals:${db}`;
}

/** A message as published: the signal and the process that sent it (which does not act on its own). */
function parse(text: string): { from: string; signal: SessionSignal } | undefined {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const key = m.key as Record<string, unknown> | undefined;
  if (typeof m.from !== 'string' || typeof key?.principal !== 'string' || typeof key.session !== 'string') return undefined;
  const k = { principal: key.principal, session: key.session };
  if (m.kind === 'deleted') return { from: m.from, signal: { kind: 'deleted', key: k } };
  if (m.kind !== 'cancel' || (typeof m.requestId !== 'string' && typeof m.requestId !== 'number')) return undefined;
  const reason = typeof m.reason === 'string' ? { reason: m.reason.slice(0, 200) } : {};
  return { from: m.from, signal: { kind: 'cancel', key: k, requestId: m.requestId, ...reason } };
}

export class RedisSignals {
  /** This process's store, so that it ignores what it published itself. */
  private readonly self = randomUUID();
  private readonly listeners = new Set<(signal: SessionSignal) => void>();
  private subscriber: Redis | undefined;
  private refused: string | undefined;

  constructor(
    private readonly client: Redis,
    private readonly channel: string,
    private readonly logger?: Logger,
  ) {}

  async publish(signal: SessionSignal): Promise<void> {
    await this.client.publish(this.channel, JSON.stringify({ ...signal, from: this.self }));
  }

  listen(listener: (signal: SessionSignal) => void): () => void {
    this.listeners.add(listener);
    this.subscriber ??= this.open();
    return () => this.listeners.delete(listener);
  }

  private open(): Redis {
    // Same address, credentials and TLS; database 0 (channels ignore it), no command queue, no INFO ready check (the
    // store's connection makes its checks), and its own SUBSCRIBE at each (re)connection instead of ioredis's
    // replay, so a refusal is seen and logged.
    const sub = this.client.duplicate({ db: 0, autoResubscribe: false, enableOfflineQueue: false, enableReadyCheck: false, lazyConnect: false });
    // Redis's problems are the store connection's to report (state_store_down); this one only reconnects.
    sub.on('error', () => undefined);
    sub.on('ready', () => {
      sub.subscribe(this.channel).then(
        () => {
          if (this.refused !== undefined) this.logger?.log('info', { event: 'state_store_signals_up', channel: this.channel });
          this.refused = undefined;
        },
        (err: unknown) => {
          const reason = err instanceof Error ? (/^[A-Z]+/.exec(err.message)?.[0] ?? 'error') : 'error';
          if (reason === this.refused) return;
          this.refused = reason;
          this.logger?.log('warn', {
            event: 'state_store_signals_down',
            channel: this.channel,
            reason,
            detail: `cannot SUBSCRIBE to ${this.channel}: a legacy client's cancellation or DELETE acts only on the replica it reaches; an ACL user needs the channel (&ac:*)`,
          });
        },
      );
    });
    sub.on('message', (channel: string, text: string) => {
      const got = channel === this.channel ? parse(text) : undefined;
      if (got === undefined || got.from === this.self) return;
      for (const l of [...this.listeners]) l(got.signal);
    });
    return sub;
  }

  close(): void {
    this.listeners.clear();
    this.subscriber?.disconnect();
  }
}
