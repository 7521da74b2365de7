import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { TransferItem } from '../../../src-shared/contract/transfers';
import { strings } from '../../app/strings';
import { useConnections } from '../../queries/use-connections';
import { connectionName } from '../shell/connection-name';
import { useTransfers } from './store';
import { TRANSFER_ROW_HEIGHT, TransferRow } from './TransferRow';

/** Newest batch first (what the user just did is on top), each batch in its queue order. */
function newestBatchFirst(items: readonly TransferItem[]): TransferItem[] {
  const batches = new Map<string, TransferItem[]>();
  for (const item of items) {
    const batch = batches.get(item.batchId);
    if (batch) batch.push(item);
    else batches.set(item.batchId, [item]);
  }
  return [...batches.values()].reverse().flat();
}

/** The queue, virtualized: 10,000 items cost what the visible ones cost. */
export function TransferList() {
  const items = useTransfers((t) => t.items);
  const connections = useConnections().data;
  const names = useMemo(() => new Map((connections ?? []).map((c) => [c.id, connectionName(c)])), [connections]);
  const ordered = useMemo(() => newestBatchFirst(items), [items]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({ count: ordered.length, getScrollElement: () => scrollRef.current, estimateSize: () => TRANSFER_ROW_HEIGHT, overscan: 16 });
  if (ordered.length === 0) return <p className="transfers-empty muted">{strings.transfers.empty}</p>;
  return (
    <div className="transfers-scroll" ref={scrollRef}>
      <div role="list" aria-label={strings.transfers.listLabel} className="transfers-canvas" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((v) => {
          const item = ordered[v.index]!;
          return <TransferRow key={item.id} item={item} connection={names.get(item.account) ?? item.account} index={v.index} count={ordered.length} top={v.start} />;
        })}
      </div>
    </div>
  );
}
