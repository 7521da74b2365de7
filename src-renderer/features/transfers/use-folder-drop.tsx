import { useEffect } from 'react';
import { carriesFiles, type UploadTarget } from '../../api/uploads';
import { strings } from '../../app/strings';
import { folderDropProps, useDropTargetNow } from './drop';

/**
 * Drops for the whole content area while a folder is shown (`folder`; null otherwise): anywhere
 * in it, files go to the folder row under the pointer, else to the folder on screen.
 */
export function useContentDrop(folder: UploadTarget | null) {
  const over = useDropTargetNow();
  if (!folder) return {};
  const here = over !== null && over.account === folder.account && over.container === folder.container && over.prefix === folder.prefix;
  return { ...folderDropProps(folder.account, folder.container, folder.prefix), ...(here ? { 'data-drop-over': 'true' } : {}) };
}

/** The banner saying where files would go while a drag of files is over the folder view. */
export function useDropBanner(account: string, container: string) {
  const over = useDropTargetNow();
  const here = over !== null && over.account === account && over.container === container;
  return here ? (
    <p className="drop-banner" role="status">
      {strings.transfers.dropHere(`${container}/${over.prefix}`)}
    </p>
  ) : null;
}

/**
 * Files dropped where nothing takes them (the sidebar, the space around the containers) are
 * refused: left alone, the browser would open the file in place of the app.
 */
export function useRefuseStrayDrops(): void {
  useEffect(() => {
    const refuse = (e: DragEvent) => {
      if (e.defaultPrevented || !carriesFiles(e.dataTransfer)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'none';
    };
    window.addEventListener('dragover', refuse);
    window.addEventListener('drop', refuse);
    return () => {
      window.removeEventListener('dragover', refuse);
      window.removeEventListener('drop', refuse);
    };
  }, []);
}
