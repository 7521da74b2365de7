// English texts of versions as a view of their own (a container's versioning, deleted objects
// shown and brought back, a folder restored to a moment) and of a new container's options. One
// part of the `en` object in ../strings.ts (see there).
import type { VersioningStatus } from '../../../src-shared/model/storage';
import { counted } from './plural';

export const versionTexts = {
  versioning: {
    menu: 'Versioning…',
    title: (name: string) => `Versioning of ${name}`,
    loading: 'Reading the versioning of this container…',
    now: {
      unversioned: 'Versioning is off: this container has never kept versions.',
      enabled: 'Versioning is on.',
      suspended: 'Versioning is suspended: the versions kept so far stay, no new ones are made.',
    } satisfies Record<VersioningStatus, string>,
    choice: 'Versioning',
    on: 'On: keep every version',
    onHint:
      'Replacing an object keeps the one it replaces as an earlier version, and deleting an object only hides it behind a delete marker: both can be undone. Earlier versions take space and count toward quotas until they are deleted.',
    off: 'Off (suspended): keep no new versions',
    offHint:
      'From now on, replacing or deleting an object is final. The versions already kept stay, and can still be restored or deleted one by one.',
    offNever: 'Off: keep no versions',
    offNeverHint: 'Replacing or deleting an object is final.',
    forGood: 'Once on, versioning can be suspended but never removed: the container keeps what it has kept.',
    cannot: 'This connection cannot keep versions:',
    save: 'Save',
    busy: 'Saving…',
  },

  showDeleted: {
    show: 'Show deleted objects',
    /** The type column of the rows shown with deleted objects. */
    deleted: 'Deleted',
    earlier: 'Earlier version',
    marker: 'Delete marker',
    undelete: 'Undelete',
    restoreVersion: 'Restore this version',
    undeleting: 'Bringing back…',
    undeleteFailed: (count: string) => `${counted(count, 'object', 'objects')} could not be brought back:`,
    failure: (name: string, message: string) => `${name}: ${message}`,
    deletedOn: (when: string) => `Deleted ${when}. Undelete brings back its newest version.`,
    earlierFrom: (when: string, size: string) => `An earlier version, from ${when} (${size}). Restoring it makes a copy of it the current version.`,
    markerFrom: (when: string) => `A delete marker from ${when}.`,
  },

  undo: {
    undoable: 'They can be brought back: this container keeps versions (show deleted objects, then Undelete).',
    undoableOne: 'It can be brought back: this container keeps versions (show deleted objects, then Undelete).',
    suspended: 'Versioning is suspended in this container: what was written since cannot be brought back; earlier versions stay.',
    never: 'This cannot be undone.',
    checking: 'Checking whether this can be undone…',
  },

  restoreTime: {
    menu: 'Restore to a moment…',
    title: (where: string) => `Restore ${where} to a moment`,
    intro: 'Every object in it goes back to the version it had then; objects made since are deleted. Nothing else changes.',
    when: 'Moment (your time zone)',
    checking: 'Counting what would change…',
    will: 'This will:',
    restore: (n: string) => `give ${counted(n, 'changed object', 'changed objects')} back the version of then`,
    bringBack: (n: string) => `bring back ${counted(n, 'object', 'objects')} deleted since`,
    remove: (n: string) => `delete ${counted(n, 'object', 'objects')} made since`,
    unchanged: (n: string) => (n === '1' ? 'leave 1 object as it is' : `leave ${n} objects as they are`),
    removedCanComeBack: 'What it deletes can be brought back: this container keeps versions.',
    atLeast: 'Counting stopped early: there are at least these many.',
    nothing: 'Nothing changed since then: there is nothing to restore.',
    notVersioned: 'Versioning is not on in this container: what is replaced or deleted now is gone for good.',
    submit: 'Restore',
    busy: 'Restoring…',
    progress: 'Restoring',
    done: (restored: string, back: string, removed: string) => `Done: ${restored} restored, ${back} brought back, ${removed} deleted.`,
    failed: (count: string) => `${counted(count, 'object', 'objects')} could not be restored:`,
    invalid: 'Pick a date and time.',
  },

  containerOptions: {
    legend: 'Options',
    versioning: 'Keep every version (versioning)',
    versioningHint: 'Replaced and deleted objects can be brought back; earlier versions count toward quotas.',
    versioningWithLock: 'Object lock turns versioning on, for good.',
    public: 'Public: anyone can list and read its objects',
    publicHint: 'Anyone who has the address reads them without credentials, until the container is made private.',
    quota: 'Quota',
    quotaBytes: 'Size limit',
    quotaObjects: 'Object limit',
    quotaHint: 'Empty: no limit.',
    objectLock: 'Object lock (S3)',
    objectLockHint: 'Objects can be locked against changes and deletes for a time; this turns versioning on for good.',
    unavailable: (why: string) => `Not available here: ${why}.`,
    invalidQuota: 'Limits are whole numbers (or empty for none).',
  },
};
