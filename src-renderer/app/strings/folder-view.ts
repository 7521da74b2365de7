// English texts of the folder view's frame: the action bar, its overflow menu, shortcuts shown in
// tooltips, the breadcrumb's path and going to the end of a folder. One part of `en` in ../strings.ts.
export const folderViewTexts = {
  actionBar: {
    more: 'More actions',
    moreMenu: 'More folder actions',
    /** A tooltip: the action and its key. */
    withKeys: (label: string, keys: string) => `${label} (${keys})`,
    keys: { delete: 'Delete', rename: 'F2', paste: 'Ctrl+V' },
  },
  path: {
    /** The full location behind a breadcrumb that may be cut short. */
    full: (container: string, prefix: string) => (prefix ? `${container}/${prefix}` : container),
  },
  toEnd: {
    loading: (count: string) => `Going to the last entry: ${count} loaded…`,
  },
};
