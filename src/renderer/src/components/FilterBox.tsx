import { useEffect, useRef, type RefObject } from 'react';
import { Search, X } from 'lucide-react';
import { shortcut } from './format';
import './filterBox.css';

/**
 * True when every whitespace-separated word of `query` occurs (case-insensitively) in one of
 * `fields`; an empty query matches everything. Words may come from different fields, so
 * "PreToolUse lint" finds a PreToolUse hook whose command runs lint.
 */
export function matchesFilter(query: string, fields: ReadonlyArray<string | null | undefined>): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const hay = fields
    .filter((f): f is string => typeof f === 'string' && f.length > 0)
    .join('\n')
    .toLowerCase();
  return words.every((w) => hay.includes(w));
}

/** True when the key event happened in a text field, where `/` is a character rather than a shortcut. */
function inTextField(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  if (el.isContentEditable) return true;
  if (el.tagName === 'TEXTAREA' || el.tagName === 'SELECT') return true;
  if (el.tagName !== 'INPUT') return false;
  const type = (el as HTMLInputElement).type;
  return !['checkbox', 'radio', 'button', 'submit', 'reset'].includes(type);
}

/**
 * `/` (outside a text field) or Ctrl/⌘+F focuses and selects `input` while the calling component
 * is mounted; an open dialog keeps the keyboard. Every list filter uses it, so the keys are the same
 * on every list.
 */
export function useFilterShortcut(input: RefObject<HTMLInputElement | null>): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const mod = e.metaKey || e.ctrlKey;
      const find = mod && !e.shiftKey && !e.altKey && e.key.toLowerCase() === 'f';
      const slash = e.key === '/' && !mod && !e.altKey && !inTextField(e.target);
      if (!(find || slash) || document.querySelector('[role="dialog"], [role="alertdialog"]')) return;
      e.preventDefault();
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [input]);
}

/**
 * The filter box of a long list (rules, hooks and MCP servers, extensions): a search field with
 * the match count ("12 of 500"), announced politely to screen readers. Keyboard: `/` (outside a
 * text field) or Ctrl/⌘+F focuses it from anywhere on the page while it is mounted; Esc clears it
 * (a second Esc, on an empty box, leaves it). Only one list is mounted at a time (the workspace
 * tabs render their active tab only), so the shortcut has one owner.
 */
export function FilterBox({ value, onChange, label, placeholder, shown, total, noun, one }: { value: string; onChange(value: string): void; label: string; placeholder: string; shown: number; total: number; noun: string; /** `noun` for a total of 1, e.g. file */ one?: string }) {
  const input = useRef<HTMLInputElement>(null);
  useFilterShortcut(input);
  const filtering = value.trim().length > 0;
  return (
    <div className="filter-box" role="search" aria-label={label}>
      <span className="filter-field">
      <Search size={13} aria-hidden className="filter-icon" />
      <input
        ref={input}
        type="search"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== 'Escape') return;
          if (value) {
            e.preventDefault();
            e.stopPropagation();
            onChange('');
          } else input.current?.blur();
        }}
        placeholder={placeholder}
        aria-label={label}
        title={`Filter (/ or ${shortcut('F')}); Esc clears`}
        spellCheck={false}
        autoComplete="off"
      />
      {filtering && (
        <button type="button" className="icon-button filter-clear" aria-label="Clear filter" onClick={() => (onChange(''), input.current?.focus())}>
          <X size={12} aria-hidden />
        </button>
      )}
      </span>
      <span className={`filter-count${filtering && shown === 0 ? ' none' : ''}`} role="status" aria-live="polite" data-testid="filter-count">
        {filtering ? `${shown} of ${total} ${total === 1 && one ? one : noun}` : `${total} ${total === 1 && one ? one : noun}`}
      </span>
    </div>
  );
}
