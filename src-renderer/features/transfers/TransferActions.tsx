import { useState, type ReactNode } from 'react';
import { strings } from '../../app/strings';
import { useCapabilities } from '../../queries/use-object-ops';
import type { Row } from '../browser/rows';
import type { Action } from '../common/ActionBar';
import { canDownload, startDownload } from './download';
import { UnfinishedUploadsDialog } from './UnfinishedUploadsDialog';
import { useUploadPickers } from './upload-pickers';

const s = strings.transfers;

/**
 * The folder toolbar's transfer actions: upload, download the selection, and (in its menu)
 * unfinished multipart uploads; `view` holds the file inputs and the dialog they need.
 */
export function useTransferActions(account: string, container: string, prefix: string, selected: readonly Row[]): { uploadFiles: Action; uploadFolder: Action; download: Action; menuOnly: Action[]; view: ReactNode } {
  const multipart = useCapabilities(account).data?.multipartUpload ?? false;
  const [unfinishedOpen, setUnfinishedOpen] = useState(false);
  const upload = useUploadPickers({ account, container, prefix });
  return {
    uploadFiles: { id: 'upload-files', label: s.uploadFiles, icon: 'upload', run: upload.pickFiles },
    uploadFolder: { id: 'upload-folder', label: s.uploadFolder, icon: 'upload-folder', run: upload.pickFolder },
    download: { id: 'download', label: s.download, icon: 'download', disabled: !canDownload(selected), run: () => startDownload(account, container, selected) },
    menuOnly: multipart ? [{ id: 'unfinished', label: s.unfinished.button, icon: 'upload', run: () => setUnfinishedOpen(true) }] : [],
    view: (
      <>
        {upload.inputs}
        {unfinishedOpen ? <UnfinishedUploadsDialog account={account} container={container} onClose={() => setUnfinishedOpen(false)} /> : null}
      </>
    ),
  };
}
