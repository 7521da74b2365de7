// One upload from pick (or drop) to start: plan it, ask about the quota and the name conflicts
// once for the whole batch, then start it. Drops made while a question is open wait their turn.
import { create } from 'zustand';
import type { ConflictPolicy, UploadPlan } from '../../../src-shared/contract/transfers';
import { isEmptySource, planUpload, startUpload, type UploadSource, type UploadTarget } from '../../api/uploads';
import { errorMessage } from '../../app/errors';
import { useTransfers } from './store';
import { reloadTransfers } from './use-transfer-feed';

export type UploadStep = 'planning' | 'quota' | 'conflicts' | 'starting' | 'error';

export interface PendingUpload {
  key: number;
  target: UploadTarget;
  source: UploadSource;
  step: UploadStep;
  plan: UploadPlan | null;
  error: string | null;
  /** Chosen in the conflict question; replace when there is none. */
  conflict: ConflictPolicy;
}

interface UploadFlowState {
  pending: readonly PendingUpload[];
}

export const useUploadFlow = create<UploadFlowState>()(() => ({ pending: [] }));

let nextKey = 1;

function patch(key: number, change: Partial<PendingUpload>): void {
  useUploadFlow.setState((s) => ({ pending: s.pending.map((p) => (p.key === key ? { ...p, ...change } : p)) }));
}

function find(key: number): PendingUpload | undefined {
  return useUploadFlow.getState().pending.find((p) => p.key === key);
}

export function dismissUpload(key: number): void {
  useUploadFlow.setState((s) => ({ pending: s.pending.filter((p) => p.key !== key) }));
}

/** Plans an upload of what was picked or dropped into the target folder and walks it through the questions. */
export async function beginUpload(target: UploadTarget, source: UploadSource): Promise<void> {
  if (isEmptySource(source)) return;
  const key = nextKey++;
  useUploadFlow.setState((s) => ({ pending: [...s.pending, { key, target, source, step: 'planning', plan: null, error: null, conflict: 'replace' }] }));
  try {
    const plan = await planUpload(target, source);
    if (plan.files === 0) return dismissUpload(key);
    patch(key, { plan });
    if (plan.quota) patch(key, { step: 'quota' });
    else await afterQuota(key);
  } catch (err) {
    patch(key, { step: 'error', error: errorMessage(err) });
  }
}

/** The user chose to go on despite the quota warning. */
export async function acceptQuota(key: number): Promise<void> {
  await afterQuota(key);
}

/** The user's answer for every conflicting name of the batch. */
export async function chooseConflict(key: number, conflict: ConflictPolicy): Promise<void> {
  patch(key, { conflict });
  await start(key);
}

async function afterQuota(key: number): Promise<void> {
  const p = find(key);
  if (!p?.plan) return;
  if (p.plan.conflicts.count > 0) patch(key, { step: 'conflicts' });
  else await start(key);
}

async function start(key: number): Promise<void> {
  const p = find(key);
  if (!p?.plan) return;
  patch(key, { step: 'starting', error: null });
  try {
    await startUpload(p.plan, p.conflict, p.source);
    dismissUpload(key);
    useTransfers.getState().setPanelOpen(true);
    await reloadTransfers();
  } catch (err) {
    patch(key, { step: 'error', error: errorMessage(err) });
  }
}
