import { useState } from 'react';
import { strings } from '../../app/strings';
import { useCapabilities } from '../../queries/use-object-ops';
import type { Row } from '../browser/rows';
import { canDownload, startDownload } from './download';
import { UnfinishedUploadsDialog } from './UnfinishedUploadsDialog';
import { UploadButtons } from './UploadButtons';

const s = strings.transfers;

/** The folder toolbar's transfer buttons: upload, download the selection, unfinished multipart uploads. */
export function TransferActions({ account, container, prefix, selected }: { account: string; container: string; prefix: string; selected: readonly Row[] }) {
  const multipart = useCapabilities(account).data?.multipartUpload ?? false;
  const [unfinishedOpen, setUnfinishedOpen] = useState(false);
  return (
    <>
      <UploadButtons target={{ account, container, prefix }} />
      <button type="button" className="button" disabled={!canDownload(selected)} onClick={() => startDownload(account, container, selected)}>
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
