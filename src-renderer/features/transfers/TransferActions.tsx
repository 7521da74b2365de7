import { useState } from 'react';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useCapabilities } from '../../queries/use-object-ops';
import type { Row } from '../browser/rows';
import { canDownload, downloadRows } from './download';
import { useTransfers } from './store';
import { UnfinishedUploadsDialog } from './UnfinishedUploadsDialog';
import { UploadButtons } from './UploadButtons';

const s = strings.transfers;

/** The folder toolbar's transfer buttons: upload, download the selection, unfinished multipart uploads. */
export function TransferActions({ account, container, prefix, selected }: { account: string; container: string; prefix: string; selected: readonly Row[] }) {
  const multipart = useCapabilities(account).data?.multipartUpload ?? false;
  const [unfinishedOpen, setUnfinishedOpen] = useState(false);
  const download = () =>
    downloadRows(account, container, selected).catch((err: unknown) => {
      useTransfers.getState().setHint(s.downloadFailed(errorMessage(err)));
      useTransfers.getState().setPanelOpen(true);
    });
  return (
    <>
      <UploadButtons target={{ account, container, prefix }} />
      <button type="button" className="button" disabled={!canDownload(selected)} onClick={() => void download()}>
        {s.download}
      </button>
      {multipart ? (
        <button type="button" className="button" onClick={() => setUnfinishedOpen(true)}>
          {s.unfinished.button}
        </button>
      ) : null}
      {unfinishedOpen ? <UnfinishedUploadsDialog account={account} container={container} onClose={() => setUnfinishedOpen(false)} /> : null}
    </>
  );
}
