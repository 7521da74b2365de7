// Dropping files and folders from the OS: onto the folder view (the folder on screen), onto a
// folder row (that folder) or onto a container in the containers list (its root). One drop
// target is highlighted at a time; the Upload buttons are the keyboard's way to do the same.
import type { DragEvent } from 'react';
import { create } from 'zustand';
import { carriesFiles, sourceFromDrop, type UploadTarget } from '../../api/uploads';
import { beginUpload } from './upload-flow';

/** Rows that take a drop for their own folder carry this attribute with the folder's prefix. */
const DROP_PREFIX = 'data-drop-prefix';

const targetKey = (t: UploadTarget) => `${t.account}\n${t.container}\n${t.prefix}`;

/** The drop target under the pointer, if a drag of files is on its way. */
const useDropOver = create<{ over: UploadTarget | null }>()(() => ({ over: null }));

function setOver(over: UploadTarget | null): void {
  const now = useDropOver.getState().over;
  if ((now && targetKey(now)) !== (over && targetKey(over))) useDropOver.setState({ over });
}

/** True while a drag of files would drop into this target. */
export function useIsDropTarget(target: UploadTarget): boolean {
  const key = targetKey(target);
  return useDropOver((s) => s.over !== null && targetKey(s.over) === key);
}

export function useDropTargetNow(): UploadTarget | null {
  return useDropOver((s) => s.over);
}

function handlers(resolve: (e: DragEvent) => UploadTarget) {
  return {
    onDragOver: (e: DragEvent) => {
      if (!carriesFiles(e.dataTransfer)) return;
      e.preventDefault();
      e.stopPropagation();
      e.dataTransfer.dropEffect = 'copy';
      setOver(resolve(e));
    },
    onDragLeave: (e: DragEvent) => {
      const to = e.relatedTarget as Node | null;
      if (!to || !(e.currentTarget as Node).contains(to)) setOver(null);
    },
    onDrop: (e: DragEvent) => {
      if (!carriesFiles(e.dataTransfer)) return;
      e.preventDefault();
      e.stopPropagation();
      setOver(null);
      // Read the DataTransfer now: it is emptied when this handler returns.
      const target = resolve(e);
      void sourceFromDrop(e.dataTransfer).then((source) => beginUpload(target, source));
    },
  };
}

/** Props for the folder view: drops go to the folder row under the pointer, else to the folder on screen. */
export function folderDropProps(account: string, container: string, prefix: string) {
  return handlers((e) => {
    const row = (e.target as Element | null)?.closest?.(`[${DROP_PREFIX}]`);
    return { account, container, prefix: row?.getAttribute(DROP_PREFIX) ?? prefix };
  });
}

/** Props for one container of the containers list: drops go to its root. */
export function containerDropProps(account: string, container: string) {
  return handlers(() => ({ account, container, prefix: '' }));
}

/** What a folder row adds so a drop onto it targets that folder. */
export function rowDropAttributes(prefix: string, over: boolean) {
  return { [DROP_PREFIX]: prefix, ...(over ? { 'data-drop-over': 'true' } : {}) };
}

/** For the containers list: each container row's drop props, with its highlight. */
export function useContainerDrops(account: string): (container: string) => ReturnType<typeof containerDropProps> & { 'data-drop-over'?: 'true' } {
  const over = useDropTargetNow();
  return (container) => ({
    ...containerDropProps(account, container),
    ...(over?.account === account && over.container === container && over.prefix === '' ? { 'data-drop-over': 'true' as const } : {}),
  });
}
