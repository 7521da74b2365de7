import { useEffect, useId, useRef, type ReactNode } from 'react';

/**
 * A modal dialog on the native <dialog> element: focus is trapped and Escape cancels for free.
 * Rendered only while open; closing goes through onClose.
 */
export function Dialog({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      // Keys typed in a dialog are the dialog's, not shortcuts of the view that opened it.
      onKeyDown={(e) => e.stopPropagation()}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        {title}
      </h2>
      {children}
    </dialog>
  );
}

/** A form's problem, announced to screen readers; nothing when there is none. */
export function FormError({ problem }: { problem: string | null | undefined }) {
  return problem ? (
    <p className="form-error" role="alert">
      {problem}
    </p>
  ) : null;
}

/** The dismiss and submit buttons at the foot of a dialog's form. */
export function FormActions(p: { dismissLabel: string; onDismiss: () => void; submitLabel: string; busyLabel: string; busy: boolean }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="button" onClick={p.onDismiss}>
        {p.dismissLabel}
      </button>
      <button type="submit" className="button primary" disabled={p.busy}>
        {p.busy ? p.busyLabel : p.submitLabel}
      </button>
    </div>
  );
}
