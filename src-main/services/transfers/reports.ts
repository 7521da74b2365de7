import type { EventMap } from '../../../src-shared/contract/events.js';
import { copyItem, type Job } from './job.js';

export type Emit = <E extends 'transfer.progress' | 'objects.changed'>(event: E, payload: EventMap[E]) => void;

const REPORT_INTERVAL_MS = 200;

/** Coalesces changes into one event per interval: every changed item once, finished uploads grouped by container. */
export class ProgressReports {
  private readonly dirty = new Map<string, Pick<Job, 'item'>>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly emit: Emit) {}

  changed(job: Pick<Job, 'item'>): void {
    this.dirty.set(job.item.id, job);
    this.timer ??= setTimeout(() => this.flush(), REPORT_INTERVAL_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private flush(): void {
    this.timer = undefined;
    const jobs = [...this.dirty.values()];
    this.dirty.clear();
    if (jobs.length === 0) return;
    this.emit('transfer.progress', { items: jobs.map((j) => copyItem(j.item)) });
    const uploaded = new Map<string, { account: string; container: string; names: string[] }>();
    for (const { item } of jobs) {
      if (item.state !== 'done' || item.direction !== 'upload') continue;
      const key = `${item.account}\n${item.container}`;
      if (!uploaded.has(key)) uploaded.set(key, { account: item.account, container: item.container, names: [] });
      uploaded.get(key)!.names.push(item.name);
    }
    for (const change of uploaded.values()) this.emit('objects.changed', change);
  }
}
