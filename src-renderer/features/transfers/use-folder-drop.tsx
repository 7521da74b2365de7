import { strings } from '../../app/strings';
import { folderDropProps, useDropTargetNow } from './drop';

/**
 * What the folder view adds for drops: the handlers for its section, and a banner saying where
 * the files would go while a drag of files is over it (a folder row under the pointer, or the
 * folder on screen).
 */
export function useFolderDrop(account: string, container: string, prefix: string) {
  const over = useDropTargetNow();
  const here = over !== null && over.account === account && over.container === container;
  return {
    props: { ...folderDropProps(account, container, prefix), ...(here && over.prefix === prefix ? { 'data-drop-over': 'true' } : {}) },
    banner: here ? (
      <p className="drop-banner" role="status">
        {strings.transfers.dropHere(`${container}/${over.prefix}`)}
      </p>
    ) : null,
  };
}
