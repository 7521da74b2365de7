import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { focusIsLost, returnFocus } from './focus';

/**
 * A modal dialog on the native <dialog> element: focus is trapped and Escape cancels for free.
 * Rendered only while open; closing goes through onClose. The focus then goes back to what
 * opened it (or, when that is gone or disabled, to the view's grid): the dialog is unmounted,
 * not just closed, so the browser's own return of the focus never happens.
 */
export function Dialog({ title, onClose, children, className, onKey }: { title: string; onClose: () => void; children: ReactNode; className?: string; onKey?: (e: KeyboardEvent) => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  // Read while rendering: before the dialog (or an autoFocus inside it) takes the focus.
  const [opener] = useState(() => document.activeElement);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first control; React's autoFocus ran while the dialog was still hidden.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => {
      const focusInside = dialog?.contains(document.activeElement) ?? false;
      dialog?.close();
      if (focusInside || focusIsLost()) returnFocus(opener);
    };
  }, [opener]);
  return (
    <dialog
      ref={ref}
      className={className ? `dialog ${className}` : 'dialog'}
      aria-labelledby={titleId}
      // Keys typed in a dialog are the dialog's, not shortcuts of the view that opened it.
      onKeyDown={(e) => {
        e.stopPropagation();
        onKey?.(e);
      }}
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

/** A form's problems as a list, announced together under `label`; nothing when there are none. */
export function FormProblems({ label, problems }: { label: string; problems: string[] }) {
  return problems.length > 0 ? (
    <div className="form-error" role="alert" aria-label={label}>
      <ul>
        {problems.map((x) => (
          <li key={x}>{x}</li>
        ))}
      </ul>
    </div>
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
