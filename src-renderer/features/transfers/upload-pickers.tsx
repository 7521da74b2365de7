import { useRef, type ChangeEvent } from 'react';
import { api } from '../../api/client';
import { hasDesktopShell, sourceFromInput, type UploadTarget } from '../../api/uploads';
import { errorMessage } from '../../app/errors';
import { strings } from '../../app/strings';
import { useTransfers } from './store';
import { beginUpload } from './upload-flow';

const s = strings.transfers;

/**
 * Upload files / Upload folder: the native dialogs in the desktop app, the browser's file
 * inputs otherwise (a webkitdirectory input gives each file its path inside the folder).
 * `inputs` must be rendered for the browser's pickers to exist.
 */
export function useUploadPickers(target: UploadTarget) {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const desktop = hasDesktopShell();

  const pick = async (folders: boolean) => {
    if (!desktop) return (folders ? folderInput : filesInput).current?.click();
    try {
      const { paths } = await api.shell.pickPaths({ folders, multiple: true, title: folders ? s.uploadFolderTitle : s.uploadFilesTitle });
      await beginUpload(target, { kind: 'paths', paths });
    } catch (err) {
      useTransfers.getState().setHint(s.pickFailed(errorMessage(err)));
      useTransfers.getState().setPanelOpen(true);
    }
  };
  const picked = (e: ChangeEvent<HTMLInputElement>) => {
    const files = e.target.files ? [...e.target.files] : [];
    // Cleared so that picking the same files again fires change again.
    e.target.value = '';
    void beginUpload(target, sourceFromInput(files));
  };

  const inputs = desktop ? null : (
    <>
      <input ref={filesInput} type="file" multiple hidden aria-label={s.uploadFilesTitle} onChange={picked} />
      <input ref={folderInput} type="file" multiple hidden aria-label={s.uploadFolderTitle} onChange={picked} {...{ webkitdirectory: '' }} />
    </>
  );
  return { pickFiles: () => void pick(false), pickFolder: () => void pick(true), inputs };
}
