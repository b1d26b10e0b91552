const DIALOG = '[role="dialog"], [role="alertdialog"]';

/**
 * Returns focus to the control that opened a dialog once the dialog closes. Radix dialogs do so
 * only for their own `Dialog.Trigger`; most of Atrium's dialogs are opened from app state (a
 * sidebar button, Ctrl+O, a banner's "Review…"), so without this focus fell to `<body>` and the
 * keyboard lost its place. Mechanism: remember the last element focused outside any dialog; when a
 * dialog leaves the DOM (Radix portals it into `<body>`) and focus is left on `<body>`, focus that
 * element again, or, when it is gone (the dialog changed the view), the main heading. A dialog
 * that places focus itself on close (a card after Approve) wins: focus is then not on `<body>`.
 * Installs once; returns a function that uninstalls.
 */
export function installFocusReturn(doc: Document = document): () => void {
  let last: HTMLElement | null = null;
  const onFocusIn = (e: FocusEvent) => {
    const el = e.target;
    if (el instanceof HTMLElement && !el.closest(DIALOG)) last = el;
  };
  const restore = () => {
    const active = doc.activeElement;
    if (active && active !== doc.body && active.isConnected) return;
    if (doc.querySelector(DIALOG)) return;
    const target = last?.isConnected && last.offsetParent !== null ? last : fallbackTarget(doc);
    target?.focus();
  };
  const observer = new MutationObserver((records) => {
    const closed = records.some((r) => [...r.removedNodes].some((n) => n instanceof HTMLElement && (n.matches(DIALOG) || n.querySelector(DIALOG) !== null)));
    // after Radix's own close handling (its focus scope settles in a timeout of its own)
    if (closed) setTimeout(restore, 30);
  });
  doc.addEventListener('focusin', onFocusIn, true);
  observer.observe(doc.body, { childList: true });
  return () => {
    doc.removeEventListener('focusin', onFocusIn, true);
    observer.disconnect();
  };
}

/** The selected workspace in the sidebar, else the page's main heading (made focusable for this). */
function fallbackTarget(doc: Document): HTMLElement | null {
  const selected = doc.querySelector<HTMLElement>('[role="option"][aria-selected="true"][data-workspace-id]');
  if (selected) return selected;
  const heading = doc.querySelector<HTMLElement>('main h1');
  if (heading && !heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  return heading;
}
