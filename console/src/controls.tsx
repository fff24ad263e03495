import { useEffect, useRef, useState } from 'preact/hooks';

interface Props {
  /** The button's text ("Revoke") and its accessible name ("Revoke the token nightly backup"). */
  text: string;
  label: string;
  question: string;
  confirmText: string;
  onConfirm: () => void | Promise<void>;
}

/**
 * A button for what cannot be undone (revoke a token, delete a user, purge from the trash): the first press asks in
 * the page (not window.confirm, which blocks the page), the second does it; Cancel or Escape steps back. The question
 * takes the focus, so a keyboard user answers it at once.
 */
export function ConfirmButton({ text, label, question, confirmText, onConfirm }: Props) {
  const [asking, setAsking] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => { if (asking) yes.current?.focus(); }, [asking]);
  if (!asking) return <button type="button" class="small" aria-label={label} onClick={() => setAsking(true)}>{text}</button>;
  return (
    <span class="confirm" role="group" aria-label={question} onKeyDown={(event) => { if (event.key === 'Escape') setAsking(false); }}>
      <span>{question}</span>
      <button ref={yes} type="button" class="small danger" onClick={() => { setAsking(false); void onConfirm(); }}>{confirmText}</button>
      <button type="button" class="small" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}

/** An element id made from a user string (a user name, a version or trash id): only characters an id selector takes. */
export function domId(prefix: string, text: string): string {
  return `${prefix}-${text.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

/** Newer/older slices of a list the API answers a page at a time (offset and limit), newest first. */
export function Pager({ label, offset, total, page, onOffset }: { label: string; offset: number; total: number; page: number; onOffset: (offset: number) => void }) {
  if (total <= page) return null;
  return (
    <nav class="inline" aria-label={label}>
      <button type="button" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - page))}>Newer</button>
      <span>{offset + 1}–{Math.min(total, offset + page)} of {total}</span>
      <button type="button" disabled={offset + page >= total} onClick={() => onOffset(offset + page)}>Older</button>
    </nav>
  );
}
