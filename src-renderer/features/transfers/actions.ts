// The queue's commands. Main changes the items and reports them through events; removals
// (clear finished) send none, so the list is reloaded after each command.
import { api } from '../../api/client';
import { cancelTransfers, pauseTransfers, resumeTransfers, retryTransfers } from '../../api/uploads';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useTransfers } from './store';
import { reloadTransfers } from './use-transfer-feed';

async function run(command: () => Promise<void>): Promise<void> {
  try {
    await command();
    await reloadTransfers();
  } catch (err) {
    useTransfers.getState().setHint(strings.transfers.commandFailed(errorMessage(err)));
  }
}


export const transferCommands = {
  pause: (ids?: string[]) => run(() => pauseTransfers(ids)),
  resume: (ids?: string[]) => run(() => resumeTransfers(ids)),
  cancel: (ids?: string[]) => run(() => cancelTransfers(ids)),
  retry: (ids?: string[]) => run(() => retryTransfers(ids)),
  clearFinished: () => run(() => api.transfers.clearFinished({})),
  setConcurrency: (concurrency: number) =>
    run(async () => {
      useTransfers.getState().setConcurrency(concurrency);
      await api.transfers.setConcurrency({ concurrency });
    }),
};
